import Foundation

/// What a request presents to prove which device it comes from (docs/devices.md): a bearer
/// token, or HTTP Basic credentials whose user names the device (OwnTracks' HTTP mode sends the
/// user it is configured with; OsmAnd and Traccar put credentials in the URL, which clients turn
/// into Basic).
public enum DeviceCredentials: Sendable, Equatable {
    /// `Authorization: Bearer SECRET`: the secret names the device by itself.
    case bearer(secret: String)
    /// `Authorization: Basic base64(USER:SECRET)`: USER is the device's name, or its user.
    case basic(user: String, secret: String)

    /// Why an `Authorization` header was not understood.
    public struct Malformed: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { "Authorization: \(message)" }
    }

    /// Reads an `Authorization` header value; nil when the header is absent.
    public static func parse(authorization: String?) throws(Malformed) -> DeviceCredentials? {
        // Swift's own string operations: Foundation's trimming went through NSString and was a
        // twentieth of a request's CPU (BENCHMARKS.md, devices over the network listener).
        guard let header = authorization.map(Self.trimmed), !header.isEmpty else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let scheme = parts[0].lowercased()
        let value = parts.count > 1 ? String(Self.trimmed(parts[1])) : ""
        switch scheme {
        case "bearer":
            guard !value.isEmpty else { throw Malformed(message: "the Bearer scheme needs a token") }
            return .bearer(secret: value)
        case "basic":
            guard let data = Data(base64Encoded: value), let decoded = String(data: data, encoding: .utf8) else {
                throw Malformed(message: "Basic credentials are not base64 of UTF-8 text")
            }
            guard let colon = decoded.firstIndex(of: ":") else {
                throw Malformed(message: "Basic credentials need USER:PASSWORD")
            }
            return .basic(user: String(decoded[..<colon]), secret: String(decoded[decoded.index(after: colon)...]))
        default:
            throw Malformed(message: "unsupported scheme '\(parts[0])'; use Bearer or Basic")
        }
    }

    /// `text` without leading and trailing spaces and tabs (HTTP's optional whitespace).
    private static func trimmed<Text: StringProtocol>(_ text: Text) -> Text.SubSequence {
        let isBlank = { (character: Character) in character == " " || character == "\t" }
        let start = text.firstIndex { !isBlank($0) } ?? text.endIndex
        let end = text.lastIndex { !isBlank($0) }.map(text.index(after:)) ?? start
        return text[start..<end]
    }
}
