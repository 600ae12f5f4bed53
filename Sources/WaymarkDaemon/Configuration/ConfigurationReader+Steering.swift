import WaymarkConfiguration
import WaymarkSteering
import Yams

/// The `devices` keys that steer phones (docs/configuration.md, docs/devices.md "Batteries"):
///
/// ```yaml
/// devices:
///   power_policy: auto        # off: no mode commands; auto (default): Waymark chooses the mode
///   region_window: 20         # regions each phone holds, the nearest N (default 20, iOS's limit; 0: none)
///   per_device:
///     kids-phone: {power_policy: off}
///     tablet: {region_window: 50}
/// ```
extension ConfigurationReader {
    /// The steering keys among `devices`' keys.
    static let steeringKeys = ["power_policy", "region_window", "per_device"]

    /// Reads one steering key of `devices` into `settings`.
    func steering(_ key: String, _ value: Node, into settings: inout SteeringSettings) throws(ConfigurationError) {
        switch key {
        case "power_policy": settings.powerPolicy = try powerPolicy(value, key: "devices.power_policy")
        case "region_window": settings.regionWindow = try regionWindow(value, key: "devices.region_window")
        default:
            for (device, overrides) in try mapping(value, key: "devices.per_device") {
                let prefix = "devices.per_device.\(device.string)"
                var override = SteeringSettings.Override()
                for (name, setting) in try mapping(overrides, key: prefix) {
                    switch name.string {
                    case "power_policy": override.powerPolicy = try powerPolicy(setting, key: "\(prefix).power_policy")
                    case "region_window": override.regionWindow = try regionWindow(setting, key: "\(prefix).region_window")
                    default: throw unknown(name, in: prefix, known: ["power_policy", "region_window"])
                    }
                }
                settings.perDevice[device.string] = override
            }
        }
    }

    private func powerPolicy(_ node: Node, key: String) throws(ConfigurationError) -> SteeringSettings.PowerPolicy {
        // YAML 1.1 reads a bare `off` as false; the scalar's text is what was written.
        let text = try string(node, key: key)
        guard let policy = SteeringSettings.PowerPolicy(rawValue: text) else {
            throw error(node, key: key, "'\(text)' is not one of \(SteeringSettings.PowerPolicy.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return policy
    }

    /// 0 sends the phone no regions (`WindowSteering`); the upper bound only keeps a typo from
    /// sending a phone thousands.
    private func regionWindow(_ node: Node, key: String) throws(ConfigurationError) -> Int {
        try integer(node, key: key, in: 0...10_000)
    }
}

extension SteeringSettings {
    /// The steering keys of a configuration file's `devices` section, for a fleet's ingest nodes
    /// (which read only their own keys of `--config`); defaults when the file has none.
    public static func load(yamlFile path: String) throws(ConfigurationError) -> SteeringSettings {
        var settings = SteeringSettings()
        guard let root = try ConfigurationReader.compose(yaml: try ConfigurationReader.text(ofFile: path), file: path) else { return settings }
        let reader = ConfigurationReader(file: path)
        for (name, section) in try reader.mapping(root, key: nil) where name.string == "devices" {
            for (key, value) in try reader.mapping(section, key: "devices") where ConfigurationReader.steeringKeys.contains(key.string) {
                try reader.steering(key.string, value, into: &settings)
            }
        }
        return settings
    }
}
