/// The broker OwnTracks phones publish to (`mqtt:` in the configuration, `serve --mqtt`;
/// docs/devices.md).
public struct MQTTSettings: Sendable, Equatable {
    public var host: String
    public var port = 1883
    /// Fixed, so that the broker keeps QoS 1 messages for Waymark while it is away.
    public var clientID = "waymark"
    public var username: String?
    /// Read from `mqtt.password_file` (its first line), never written in the configuration.
    public var password: String?
    /// The apps' base topic (OwnTracks: `owntracks`).
    public var baseTopic = "owntracks"

    public init(host: String, port: Int = 1883) {
        self.host = host
        self.port = port
    }
}
