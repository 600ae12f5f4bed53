import WaymarkPower
import WaymarkServices

/// `power.*`: how the daemon prices its radios' time, and whether it lets the GNSS sleep
/// (docs/semantics.md §4).
public struct PowerSettings: Sendable, Equatable {
    /// `power.gnss_profile`: the GNSS receiver's profile; default the built-in u-blox M8.
    public var gnssProfile: PowerProfile = .ubloxM8USB
    /// `power.bluetooth_profile`: the Bluetooth adapter's profile; default the built-in BLE adapter.
    public var bluetoothProfile: PowerProfile = .bleAdapter
    /// `power.network`: which radio carries Waymark's traffic (outputs, the device listener), so
    /// the ledger can price it; `auto` looks at the interface of the default route.
    public var network: NetworkRadioChoice = .auto
    /// `power.wifi_profile`: the Wi-Fi profile; default the built-in `wifi`.
    public var wifiProfile: PowerProfile = .wifi
    /// `power.cellular_profile`: the cellular modem's profile; default the built-in `lte-modem`.
    public var cellularProfile: PowerProfile = .lteModem
    /// `power.phone_profiles`: a directory with `phone-gnss.yaml`, `phone-wifi.yaml` and
    /// `phone-lte.yaml`, pricing each network device's tracking (docs/semantics.md §4.4);
    /// default the built-in phone.
    public var phoneProfiles: PhoneProfiles = .default
    /// `power.aware`: when only region, visit and significant-change subscriptions need fixes,
    /// stop watching gpsd until a boundary could be crossed.
    public var aware = false
    /// `power.activity`: the speed bound of that schedule (default `other`, 60 m/s).
    public var activity: ActivityType = .other

    public init() {}
}

/// `power.network`: the radio Waymark's traffic goes over.
public enum NetworkRadioChoice: String, Sendable, Equatable, CaseIterable {
    /// The default route's interface decides (`DefaultRouteRadio`): wireless is Wi-Fi, a WWAN
    /// modem or PPP link is cellular, anything else (Ethernet, none) is no radio.
    case auto
    case wifi
    case cellular
    /// Wired, or not to be priced.
    case none
}

extension PowerSettings {
    /// The profile that prices the network traffic, given what `auto` found; nil for none.
    public func networkProfile(detected: @autoclosure () -> Radio?) -> PowerProfile? {
        switch network {
        case .wifi: wifiProfile
        case .cellular: cellularProfile
        case .none: nil
        case .auto:
            switch detected() {
            case .wifi: wifiProfile
            case .cellular: cellularProfile
            default: nil
            }
        }
    }
}
