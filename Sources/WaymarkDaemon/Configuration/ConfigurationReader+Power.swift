import WaymarkConfiguration
import WaymarkPower
import Yams

/// The `power` section:
///
/// ```yaml
/// power:
///   gnss_profile: /etc/waymark/power/phone-gnss.yaml   # default: built-in u-blox M8
///   bluetooth_profile: Profiles/power/ble-adapter.yaml  # default: built-in BLE adapter
///   network: cellular            # auto (default), wifi, cellular, none
///   cellular_profile: Profiles/power/lte-modem.yaml     # default: built-in LTE modem
///   wifi_profile: Profiles/power/wifi.yaml              # default: built-in Wi-Fi
///   phone_profiles: Profiles/power                      # phone-*.yaml; default: built-in phone
///   aware: true
///   activity: fitness
/// ```
extension ConfigurationReader {
    func power(_ section: Node) throws(ConfigurationError) -> PowerSettings {
        var settings = PowerSettings()
        for (key, value) in try mapping(section, key: "power") {
            let field = "power.\(key.string)"
            switch key.string {
            case "gnss_profile": settings.gnssProfile = try profile(value, key: field, radio: .gnss)
            case "bluetooth_profile": settings.bluetoothProfile = try profile(value, key: field, radio: .bluetooth)
            case "wifi_profile": settings.wifiProfile = try profile(value, key: field, radio: .wifi)
            case "cellular_profile": settings.cellularProfile = try profile(value, key: field, radio: .cellular)
            case "phone_profiles":
                let directory = try string(value, key: field)
                do {
                    settings.phoneProfiles = try PhoneProfiles.load(directory: directory)
                } catch {
                    throw self.error(value, key: field, "\(error)")
                }
            case "network":
                let text = try string(value, key: field)
                guard let choice = NetworkRadioChoice(rawValue: text) else {
                    throw error(value, key: field, "\"\(text)\" is not one of \(NetworkRadioChoice.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                settings.network = choice
            case "aware": settings.aware = try bool(value, key: field)
            case "activity": settings.activity = try activity(value, key: field)
            default:
                throw unknown(
                    key, in: "power",
                    known: ["gnss_profile", "bluetooth_profile", "wifi_profile", "cellular_profile", "phone_profiles", "network", "aware", "activity"])
            }
        }
        return settings
    }

    /// A profile file for `radio`; its own errors keep their place in the profile file.
    private func profile(_ node: Node, key: String, radio: Radio) throws(ConfigurationError) -> PowerProfile {
        let path = try string(node, key: key)
        let profile: PowerProfile
        do {
            profile = try PowerProfile.load(file: path)
        } catch {
            throw self.error(node, key: key, "\(error)")
        }
        guard profile.radio == radio else {
            throw error(node, key: key, "\(path) describes a \(profile.radio.rawValue) radio, not \(radio.rawValue)")
        }
        return profile
    }
}
