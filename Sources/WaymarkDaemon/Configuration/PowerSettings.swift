import WaymarkPower
import WaymarkServices

/// `power.*`: how the daemon prices its radios' time, and whether it lets the GNSS sleep
/// (docs/semantics.md §4).
public struct PowerSettings: Sendable, Equatable {
    /// `power.gnss_profile`: the GNSS receiver's profile; default the built-in u-blox M8.
    public var gnssProfile: PowerProfile = .ubloxM8USB
    /// `power.bluetooth_profile`: the Bluetooth adapter's profile; default the built-in BLE adapter.
    public var bluetoothProfile: PowerProfile = .bleAdapter
    /// `power.aware`: when only region, visit and significant-change subscriptions need fixes,
    /// stop watching gpsd until a boundary could be crossed.
    public var aware = false
    /// `power.activity`: the speed bound of that schedule (default `other`, 60 m/s).
    public var activity: ActivityType = .other

    public init() {}
}
