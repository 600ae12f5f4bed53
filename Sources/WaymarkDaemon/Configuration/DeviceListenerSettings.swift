/// Where the network listener for phones and trackers listens (`devices.listen`, `serve
/// --listen`; docs/devices.md), and how much it reads of one request.
public struct DeviceListenerSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// `devices.max_body_bytes`: larger bodies are refused with 413 (default 64 KiB; an
    /// OwnTracks location is a few hundred bytes).
    public var maximumBodySize = 64 << 10
    /// `devices.tls_certificate` and `devices.tls_key`: PEM files; with both the listener
    /// serves HTTPS (docs/devices.md).
    public var tlsCertificate: String?
    public var tlsKey: String?

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `HOST:PORT`, `[IPv6]:PORT`, or `:PORT` (every address); nil when it is none of those.
    public init?(listen text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.isEmpty { host = "0.0.0.0" }
        guard !host.contains(where: \.isWhitespace) else { return nil }
        self.init(host: host, port: port)
    }
}
