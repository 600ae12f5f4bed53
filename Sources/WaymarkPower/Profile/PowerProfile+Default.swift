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

extension PowerProfile {
    /// The default Wi-Fi profile, the same as `Profiles/power/wifi.yaml` (a test keeps them
    /// equal), so the daemon prices its traffic over Wi-Fi without a file.
    public static let wifi = PowerProfile(
        name: "wifi", radio: .wifi, description: "phone-class Wi-Fi",
        states: [
            "off": PowerState(current: 0, voltage: 3.8, source: "radio off"),
            "idle": PowerState(current: 2 / 1000, voltage: 3.8, source: "associated, idle (Android power profiles wifi.on order of magnitude)"),
            "scanning": PowerState(current: 120 / 1000, voltage: 3.8, source: "Wi-Fi scan 75–166 mA, middle of the range (docs/semantics.md §4)"),
            "active": PowerState(current: 110 / 1000, voltage: 3.8, source: "sending ~0.42 W: ~0.13 W base plus ~0.28 W per Mbit/s sent (Huang et al. 2012)"),
            "tail": PowerState(current: 31 / 1000, voltage: 3.8, source: "~0.12 W for ~0.24 s after traffic (Huang et al. 2012)"),
        ],
        transfer: TransferTiming(promotionSeconds: 0.08, tailSeconds: 0.24, bytesPerSecond: 10000 * 1000 / 8))

    /// The default cellular profile, the same as `Profiles/power/lte-modem.yaml` (a test keeps
    /// them equal).
    public static let lteModem = PowerProfile(
        name: "lte-modem", radio: .cellular, description: "LTE modem (USB or M.2)",
        states: [
            "off": PowerState(current: 0, voltage: 3.8, source: "modem off"),
            "idle": PowerState(current: 5.3 / 1000, voltage: 3.8, source: "idle ~20 mW (docs/semantics.md §4)"),
            "active": PowerState(current: 263 / 1000, voltage: 3.8, source: "active ~1 W (docs/semantics.md §4)"),
            "tail": PowerState(current: 263 / 1000, voltage: 3.8, source: "~1 W for ~11.6 s after traffic (docs/semantics.md §4)"),
        ],
        transfer: TransferTiming(promotionSeconds: 0.26, tailSeconds: 11.6, bytesPerSecond: 6000 * 1000 / 8))
}
