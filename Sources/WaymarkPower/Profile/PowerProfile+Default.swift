extension PowerProfile {
    /// The default GNSS profile, the same as `Profiles/power/ublox-m8-usb.yaml` (a test keeps
    /// them equal), so the binary needs no file to price GNSS time.
    public static let ubloxM8USB = PowerProfile(
        name: "ublox-m8-usb", radio: .gnss, description: "u-blox M8-class USB GNSS receiver (default)",
        states: [
            "off": PowerState(current: 0, voltage: 3.0, source: "receiver unpowered (gpsd stops the device when nobody watches)"),
            "acquiring": PowerState(current: 0.025, voltage: 3.0, source: "u-blox NEO-M8 data sheet, typical acquisition current (docs/semantics.md §4)"),
            "tracking": PowerState(current: 0.022, voltage: 3.0, source: "u-blox NEO-M8 data sheet, continuous tracking 21–23 mA (docs/semantics.md §4)"),
            "powerSave": PowerState(current: 0.006, voltage: 3.0, source: "u-blox NEO-M8 data sheet, power save mode ~6 mA (docs/semantics.md §4)"),
        ],
        startTimes: ["cold": 29, "warm": 25, "hot": 1])

    /// The default Bluetooth profile, the same as `Profiles/power/ble-adapter.yaml` (a test keeps
    /// them equal), so the daemon prices scanning without a file.
    public static let bleAdapter = PowerProfile(
        name: "ble-adapter", radio: .bluetooth, description: "Bluetooth LE adapter (USB dongle or on-board controller)",
        states: [
            "off": PowerState(current: 0, voltage: 3.3, source: "controller idle, not scanning"),
            "scanning": PowerState(current: 0.006, voltage: 3.3, source: "BLE receive 3–6 mA, upper figure (docs/semantics.md §4)"),
        ])
}
