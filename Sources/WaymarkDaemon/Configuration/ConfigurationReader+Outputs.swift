import WaymarkConfiguration
import Foundation
import WaymarkAPI
import WaymarkCore
import WaymarkOutputs
import Yams

/// The `outputs` section (docs/outputs.md, docs/configuration.md): outputs by name, added to the
/// store when the daemon starts, or updated there (receiver, format, secret, filter, keep time,
/// location interval; the cursors and dead letters stay).
///
/// ```yaml
/// outputs:
///   hub:
///     webhook: https://hub.example/waymark
///     secret_file: /etc/waymark/hub-secret   # first line: the signing secret
///     regions: [home, office]                # optional; default all
///     devices: [phone]                       # optional; default all
///     kinds: [region, beacon]                # optional; this is the default
///     keep_seconds: 86400                    # optional
///   ha:
///     mqtt: mqtt://127.0.0.1:1883/waymark
///     format: homeassistant                  # or owntracks; default cloudevents
///     location_seconds: 10                   # optional: between a device's positions
/// ```
extension ConfigurationReader {
    func outputs(_ section: Node) throws(ConfigurationError) -> [Output] {
        var outputs: [Output] = []
        for (name, value) in try mapping(section, key: "outputs") {
            let prefix = "outputs.\(name.string)"
            var request = NewOutput(name: name.string, url: "")
            var secret: String?
            for (key, setting) in try mapping(value, key: prefix) {
                let field = "\(prefix).\(key.string)"
                switch key.string {
                case "webhook", "mqtt": request.url = try string(setting, key: field)
                case "secret_file":
                    let path = try string(setting, key: field)
                    do {
                        secret = try SecretFile.firstLine(of: path, key: field)
                    } catch {
                        throw self.error(setting, key: field, "cannot use '\(path)' as a secret: \(error.message)")
                    }
                case "regions": request.regions = try strings(setting, key: field)
                case "devices": request.devices = try strings(setting, key: field)
                case "kinds": request.kinds = try strings(setting, key: field)
                case "keep_seconds": request.keepSeconds = try integer(setting, key: field, in: 1...Int(Int32.max))
                case "format": request.format = try string(setting, key: field)
                case "location_seconds": request.locationSeconds = try integer(setting, key: field, in: 0...86_400)
                default:
                    throw unknown(
                        key, in: prefix,
                        known: ["webhook", "mqtt", "format", "secret_file", "regions", "devices", "kinds", "keep_seconds", "location_seconds"])
                }
            }
            guard !request.url.isEmpty else { throw error(value, key: "\(prefix).webhook", "missing: the receiver's URL (webhook: or mqtt:)") }
            let isMQTT = request.url.lowercased().hasPrefix("mqtt://")
            // An MQTT output signs nothing (the broker authenticates); a webhook needs its secret.
            guard let secret = secret ?? (isMQTT ? "-" : nil) else {
                throw error(value, key: "\(prefix).secret_file", "missing: a file whose first line is the signing secret")
            }
            switch request.output(secret: secret, at: Timestamp(secondsSince1970: Date().timeIntervalSince1970)) {
            case .success(let output): outputs.append(output)
            case .failure(let problem):
                let key = ["url": isMQTT ? "mqtt" : "webhook", "keepSeconds": "keep_seconds", "locationSeconds": "location_seconds"][problem.field] ?? problem.field
                throw error(value, key: "\(prefix).\(key)", problem.message)
            }
        }
        return outputs
    }
}
