import WaymarkPower

/// `power.*`: how the daemon prices its radios' time (SEMANTICS §4).
public struct PowerSettings: Sendable, Equatable {
    /// `power.gnss_profile`: the GNSS receiver's profile; default the built-in u-blox M8.
    public var gnssProfile: PowerProfile = .ubloxM8USB
    /// `power.bluetooth_profile`: the Bluetooth adapter's profile; default the built-in BLE adapter.
    public var bluetoothProfile: PowerProfile = .bleAdapter

    public init() {}
}
