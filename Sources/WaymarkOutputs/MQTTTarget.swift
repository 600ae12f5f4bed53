/// Where an MQTT output publishes (docs/outputs.md): `mqtt://[USER[:PASSWORD]@]HOST[:PORT]/TOPIC`,
/// TOPIC a template in which `{device}` and `{kind}` become the event's device and kind —
/// `mqtt://127.0.0.1/waymark/{device}/events` by default layout. Port 1883 unless given.
public struct MQTTTarget: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?
    public var topic: String

    public init(host: String, port: Int = 1883, username: String? = nil, password: String? = nil, topic: String) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.topic = topic
    }

    /// Parses the URL; the reason it cannot be used otherwise.
    public static func parse(_ url: String) -> Result<MQTTTarget, OutputFieldError> {
        func failure(_ message: String) -> Result<MQTTTarget, OutputFieldError> { .failure(OutputFieldError(field: "url", message: message)) }
        guard url.lowercased().hasPrefix("mqtt://") else { return failure("expected mqtt://HOST[:PORT]/TOPIC") }
        let rest = url.dropFirst("mqtt://".count)
        guard let slash = rest.firstIndex(of: "/") else { return failure("expected a topic after the host: mqtt://HOST[:PORT]/TOPIC") }
        var authority = rest[..<slash]
        let topic = String(rest[rest.index(after: slash)...])
        guard !topic.isEmpty, !topic.contains("#"), !topic.contains("+") else {
            return failure("the topic must be non-empty and without the wildcards + and #")
        }
        var username: String?
        var password: String?
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                username = String(credentials[..<colon])
                password = String(credentials[credentials.index(after: colon)...])
            } else {
                username = String(credentials)
            }
        }
        var host = String(authority)
        var port = 1883
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number) else {
                return failure("the port must be 1–65535")
            }
            port = number
            host = String(authority[..<colon])
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return failure("expected a host: mqtt://HOST[:PORT]/TOPIC") }
        return .success(MQTTTarget(host: host, port: port, username: username, password: password, topic: topic))
    }

    /// The topic for `event`.
    public func topic(for event: OutputEvent) -> String { topic(device: event.device, kind: event.kind.rawValue) }

    /// The topic for an event of `device` and `kind`.
    public func topic(device: String, kind: String) -> String {
        topic.replacingOccurrences(of: "{device}", with: device).replacingOccurrences(of: "{kind}", with: kind)
    }
}
