import Foundation

/// Where a JetStream message came from, read from its ack subject
/// `$JS.ACK.<stream>.<consumer>.<delivered>.<sseq>.<cseq>.<ts>.<pending>` or the newer
/// `$JS.ACK.<domain>.<account hash>.<stream>.<consumer>.<delivered>.<sseq>.<cseq>.<ts>.<pending>[.<token>]`.
public struct JetStreamMetadata: Sendable, Hashable {
    public var domain: String?
    public var stream: String
    public var consumer: String
    /// 1 on first delivery, 2 on the first redelivery, …
    public var deliveryCount: Int
    public var streamSequence: UInt64
    public var consumerSequence: UInt64
    /// Nanoseconds since 1970 when the stream stored the message.
    public var timestamp: Int64
    /// Messages still pending for the consumer after this one.
    public var pending: UInt64

    public init?(ackSubject: String) {
        let tokens = ackSubject.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard tokens.count >= 9, tokens[0] == "$JS", tokens[1] == "ACK" else { return nil }
        let base: Int
        switch tokens.count {
        case 9:
            base = 2
            domain = nil
        case 11, 12:
            base = 4
            domain = tokens[2] == "_" ? nil : tokens[2]
        default:
            return nil
        }
        guard let delivered = Int(tokens[base + 2]), let sseq = UInt64(tokens[base + 3]),
            let cseq = UInt64(tokens[base + 4]), let ts = Int64(tokens[base + 5]), let pending = UInt64(tokens[base + 6])
        else { return nil }
        stream = tokens[base]
        consumer = tokens[base + 1]
        deliveryCount = delivered
        streamSequence = sseq
        consumerSequence = cseq
        timestamp = ts
        self.pending = pending
    }
}

/// A message pulled from a consumer. Acknowledge it with `ack()` (or `nak`, `inProgress`, `term`),
/// or the server redelivers it after the consumer's ack wait.
public struct JetStreamMessage: Sendable {
    public var subject: String
    public var payload: [UInt8]
    public var headers: NATSHeaders
    /// The subject acks go to; it also encodes `metadata`.
    public var replySubject: String
    public var metadata: JetStreamMetadata
    let connection: NATSConnection

    public var streamSequence: UInt64 { metadata.streamSequence }
    public var deliveryCount: Int { metadata.deliveryCount }

    init?(_ message: NATSMessage, connection: NATSConnection) {
        guard let reply = message.reply, let metadata = JetStreamMetadata(ackSubject: reply) else { return nil }
        subject = message.subject
        payload = message.payload
        headers = message.headers
        replySubject = reply
        self.metadata = metadata
        self.connection = connection
    }

    /// Acknowledges (fire and forget: lost if the connection drops before the server reads it,
    /// in which case the message is redelivered).
    public func ack() async throws {
        try await connection.publish(Array("+ACK".utf8), to: replySubject)
    }

    /// Acknowledges and waits for the server to confirm it recorded the ack.
    public func ackSync(timeout: Duration = .seconds(5)) async throws {
        _ = try await connection.request(Array("+ACK".utf8), to: replySubject, timeout: timeout)
    }

    /// Asks for redelivery, after `delay` if given (else at once).
    public func nak(delay: Duration? = nil) async throws {
        let body = delay.map { "-NAK {\"delay\":\($0.nanoseconds)}" } ?? "-NAK"
        try await connection.publish(Array(body.utf8), to: replySubject)
    }

    /// Resets the ack wait: the message is still being worked on.
    public func inProgress() async throws {
        try await connection.publish(Array("+WPI".utf8), to: replySubject)
    }

    /// Never redeliver this message.
    public func term() async throws {
        try await connection.publish(Array("+TERM".utf8), to: replySubject)
    }
}
