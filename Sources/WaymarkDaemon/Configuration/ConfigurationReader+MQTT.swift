import WaymarkConfiguration
import Foundation
import Yams

/// The `mqtt` section (docs/configuration.md):
///
/// ```yaml
/// mqtt:
///   host: 127.0.0.1
///   port: 1883
///   username: waymark
///   password_file: /etc/waymark/mqtt-password   # first line
///   client_id: waymark
///   base_topic: owntracks
/// ```
extension ConfigurationReader {
    func mqtt(_ section: Node) throws(ConfigurationError) -> MQTTSettings {
        var settings = MQTTSettings(host: "127.0.0.1")
        for (key, value) in try mapping(section, key: "mqtt") {
            let field = "mqtt.\(key.string)"
            switch key.string {
            case "host": settings.host = try string(value, key: field)
            case "port": settings.port = try integer(value, key: field, in: 1...65535)
            case "username": settings.username = try string(value, key: field)
            case "password_file":
                let path = try string(value, key: field)
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw error(value, key: field, "cannot read '\(path)'")
                }
                settings.password = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            case "client_id":
                settings.clientID = try string(value, key: field)
                if settings.clientID.isEmpty || settings.clientID.utf8.count > 23 {
                    // MQTT 3.1.1 §3.1.3.1: brokers must accept 1–23 characters; more may be refused.
                    throw error(value, key: field, "must be 1–23 characters")
                }
            case "base_topic":
                settings.baseTopic = try string(value, key: field)
                if settings.baseTopic.isEmpty || settings.baseTopic.contains(where: { "+#".contains($0) }) || settings.baseTopic.hasSuffix("/") {
                    throw error(value, key: field, "must be a topic without wildcards or a trailing '/'")
                }
            default:
                throw unknown(key, in: "mqtt", known: ["host", "port", "username", "password_file", "client_id", "base_topic"])
            }
        }
        return settings
    }
}
