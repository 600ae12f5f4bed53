import Foundation

/// The server's `INFO`: what the client must respect (max_payload, headers) or refuse (TLS).
public struct NATSServerInfo: Sendable, Hashable, Decodable {
    public var serverID: String
    public var serverName: String?
    public var version: String
    public var maxPayload: Int
    public var headers: Bool
    public var jetStream: Bool
    public var tlsRequired: Bool
    public var authRequired: Bool

    enum CodingKeys: String, CodingKey {
        case serverID = "server_id"
        case serverName = "server_name"
        case version
        case maxPayload = "max_payload"
        case headers
        case jetStream = "jetstream"
        case tlsRequired = "tls_required"
        case authRequired = "auth_required"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        serverID = try c.decodeIfPresent(String.self, forKey: .serverID) ?? ""
        serverName = try c.decodeIfPresent(String.self, forKey: .serverName)
        version = try c.decodeIfPresent(String.self, forKey: .version) ?? ""
        maxPayload = try c.decodeIfPresent(Int.self, forKey: .maxPayload) ?? 1_048_576
        headers = try c.decodeIfPresent(Bool.self, forKey: .headers) ?? false
        jetStream = try c.decodeIfPresent(Bool.self, forKey: .jetStream) ?? false
        tlsRequired = try c.decodeIfPresent(Bool.self, forKey: .tlsRequired) ?? false
        authRequired = try c.decodeIfPresent(Bool.self, forKey: .authRequired) ?? false
    }

    static func decode(_ json: String) throws -> NATSServerInfo {
        try JSONDecoder().decode(NATSServerInfo.self, from: Data(json.utf8))
    }
}

/// `nats://[user[:password]@]host[:port]`; the port defaults to 4222.
struct NATSURL: Sendable, Equatable {
    var host: String
    var port: Int
    var user: String?
    var password: String?

    init(host: String, port: Int, user: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
    }

    init(_ text: String) throws(NATSError) {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if let scheme = rest.range(of: "://") {
            let name = rest[..<scheme.lowerBound].lowercased()
            guard name == "nats" || name == "tcp" else { throw .invalidURL(text) }
            rest = rest[scheme.upperBound...]
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if let at = rest.lastIndex(of: "@") {
            let userinfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = userinfo.firstIndex(of: ":") {
                user = String(userinfo[..<colon]).removingPercentEncoding
                password = String(userinfo[userinfo.index(after: colon)...]).removingPercentEncoding
            } else {
                user = String(userinfo).removingPercentEncoding
            }
        }
        var hostPart = rest
        var portPart: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .invalidURL(text) }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidURL(text) }
                portPart = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            hostPart = rest[..<colon]
            portPart = rest[rest.index(after: colon)...]
        }
        guard !hostPart.isEmpty, !hostPart.contains(where: { $0 == "/" || $0 == " " }) else { throw .invalidURL(text) }
        host = String(hostPart)
        if let portPart {
            guard let port = Int(portPart), (1...65535).contains(port) else { throw .invalidURL(text) }
            self.port = port
        } else {
            port = 4222
        }
    }
}
