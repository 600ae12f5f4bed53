/// Every failure the client reports. Each case names what the caller needs to act on: the URL
/// that refused, the subject that timed out, the server's own words.
public enum NATSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL could not be understood (scheme, host or port).
    case invalidURL(String)
    /// TCP connect or the INFO/CONNECT handshake failed.
    case connectionFailed(url: String, reason: String)
    /// The connection is closed (by `close()`, the server, or an earlier error); `reason` says which.
    case connectionClosed(reason: String)
    /// The server sent `-ERR` (text without the quotes).
    case serverError(String)
    /// The server sent something this client cannot parse; the connection is closed.
    case protocolViolation(String)
    /// No answer arrived in time.
    case timeout(subject: String, after: Duration)
    /// The server answered a request with status 503: nobody subscribes to the subject. For a
    /// JetStream subject this means JetStream is not enabled or no stream captures the subject.
    case noResponders(subject: String)
    /// A JetStream API call answered with `{"error":{...}}`.
    case jetStream(JetStreamAPIError)
    /// A pull request ended with a status that is an error (e.g. `409 Consumer Deleted`).
    case jetStreamStatus(code: Int, description: String, subject: String)
    /// A JetStream answer was not what the API promises (undecodable JSON, missing ack subject).
    case unexpectedResponse(subject: String, reason: String)
    /// Subjects must be non-empty and free of whitespace.
    case invalidSubject(String)
    /// Header names must be non-empty tokens without ':' or whitespace; values without CR/LF.
    case invalidHeader(String)
    /// The payload exceeds the server's `max_payload`.
    case payloadTooLarge(size: Int, maximum: Int)

    public var description: String {
        switch self {
        case .invalidURL(let url):
            return "invalid NATS URL '\(url)' (expected nats://host:port)"
        case .connectionFailed(let url, let reason):
            return "cannot connect to NATS at \(url): \(reason)"
        case .connectionClosed(let reason):
            return "NATS connection closed: \(reason)"
        case .serverError(let text):
            return "NATS server error: \(text)"
        case .protocolViolation(let text):
            return "NATS protocol violation: \(text)"
        case .timeout(let subject, let after):
            return "NATS request on '\(subject)' timed out after \(after)"
        case .noResponders(let subject):
            return "no responders for '\(subject)' (for JetStream: JetStream disabled or no stream for the subject)"
        case .jetStream(let error):
            return error.description
        case .jetStreamStatus(let code, let description, let subject):
            return "JetStream pull on '\(subject)' ended with status \(code) \(description)"
        case .unexpectedResponse(let subject, let reason):
            return "unexpected response on '\(subject)': \(reason)"
        case .invalidSubject(let subject):
            return "invalid NATS subject '\(subject)'"
        case .invalidHeader(let header):
            return "invalid NATS header '\(header)'"
        case .payloadTooLarge(let size, let maximum):
            return "payload of \(size) bytes exceeds the server's max_payload \(maximum)"
        }
    }
}

/// The `error` object of a JetStream API response.
public struct JetStreamAPIError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// HTTP-like status (400, 404, 500, 503).
    public var code: Int
    /// JetStream's own error number, stable across versions: e.g. 10058 stream name in use with
    /// another configuration, 10059 stream not found, 10014 consumer not found.
    public var errCode: Int
    public var errorDescription: String

    public init(code: Int, errCode: Int, description: String) {
        self.code = code
        self.errCode = errCode
        self.errorDescription = description
    }

    enum CodingKeys: String, CodingKey {
        case code
        case errCode = "err_code"
        case errorDescription = "description"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        code = try c.decode(Int.self, forKey: .code)
        errCode = try c.decodeIfPresent(Int.self, forKey: .errCode) ?? 0
        errorDescription = try c.decodeIfPresent(String.self, forKey: .errorDescription) ?? ""
    }

    public var description: String {
        "JetStream API error \(code) (err_code \(errCode)): \(errorDescription)"
    }
}
