import Foundation
import NIOCore

/// JetStream over a `NATSConnection`: streams, durable pull consumers, acknowledged publishing.
/// A value type holding the connection, so it is cheap to pass around.
public struct JetStream: Sendable {
    public let connection: NATSConnection
    /// How long an API call (or a publish's PubAck) may take.
    public let timeout: Duration
    /// `$JS.API`, or `$JS.<domain>.API` for a JetStream domain.
    public let apiPrefix: String

    /// Grace after `expires` during which a pull still waits for the server's 408: messages the
    /// server already counted as delivered must not be abandoned in flight.
    static let fetchGrace: Duration = .seconds(1)

    public init(_ connection: NATSConnection, timeout: Duration = .seconds(5), apiPrefix: String = "$JS.API") {
        self.connection = connection
        self.timeout = timeout
        self.apiPrefix = apiPrefix
    }

    // MARK: Streams

    /// Creates the stream, or updates it if it exists with other subjects. File storage.
    /// `duplicateWindow` is how long message IDs are remembered for deduplication (capped at `maxAge`).
    public func ensureStream(
        _ name: String, subjects: [String], maxAge: Duration? = nil, duplicateWindow: Duration = .seconds(120)
    ) async throws {
        try Self.validateName(name)
        let maxAgeNanos = maxAge?.nanoseconds ?? 0
        var window = duplicateWindow.nanoseconds
        if maxAgeNanos > 0 { window = min(window, maxAgeNanos) }
        let config = StreamConfig(name: name, subjects: subjects, maxAge: maxAgeNanos, duplicateWindow: window)
        do {
            _ = try await api("STREAM.CREATE.\(name)", body: config, as: StreamInfo.self)
        } catch NATSError.jetStream(let error) where error.errCode == 10058 {
            // Exists with another configuration: bring it to this one.
            _ = try await api("STREAM.UPDATE.\(name)", body: config, as: StreamInfo.self)
        }
    }

    public func streamInfo(_ name: String) async throws -> StreamInfo {
        try Self.validateName(name)
        return try await api("STREAM.INFO.\(name)", as: StreamInfo.self)
    }

    public func deleteStream(_ name: String) async throws {
        try Self.validateName(name)
        _ = try await api("STREAM.DELETE.\(name)", as: SuccessResponse.self)
    }

    // MARK: Publishing

    /// Publishes and waits for the stream's PubAck. `messageID` goes in the `Nats-Msg-Id` header,
    /// so a retried publish within the stream's duplicate window is stored once (`duplicate` true).
    public func publish(
        _ payload: [UInt8], to subject: String, messageID: String? = nil, headers: [(String, String)] = []
    ) async throws -> PubAck {
        var allHeaders = NATSHeaders(headers)
        if let messageID { allHeaders.append("Nats-Msg-Id", messageID) }
        let reply = try await connection.request(payload, to: subject, headers: allHeaders, timeout: timeout)
        return try decode(reply, subject: subject, as: PubAck.self)
    }

    /// Publishes `messages` in order, pipelined (one write, then every PubAck), and returns
    /// their acks in the same order: a device's batch of fixes costs one round trip and keeps
    /// its order in the stream.
    public func publish(_ messages: [(payload: [UInt8], subject: String, messageID: String?)]) async throws -> [PubAck] {
        guard !messages.isEmpty else { return [] }
        let requests = messages.map { message in
            var headers = NATSHeaders()
            if let id = message.messageID { headers.append("Nats-Msg-Id", id) }
            return (payload: message.payload, subject: message.subject, headers: headers)
        }
        let replies = try await connection.requests(requests, timeout: timeout)
        return try zip(replies, messages).map { reply, message in try decode(reply, subject: message.subject, as: PubAck.self) }
    }

    // MARK: Consumers

    /// Durable pull consumer, explicit ack, filtered; it delivers everything the stream holds, or,
    /// given `startingAt`, the messages stored from then on (a consumer's start is fixed when it
    /// is created). Idempotent: succeeds when the consumer exists with this configuration. For an
    /// existing consumer the server applies the changes it allows in place (ack wait, max ack
    /// pending: tested on 2.9.10); a change it refuses (10013/10148) throws unless the existing
    /// consumer already matches.
    public func ensureConsumer(
        stream: String, durable: String, filterSubject: String, ackWait: Duration, maxAckPending: Int = 10_000,
        startingAt start: Date? = nil
    ) async throws {
        try Self.validateName(stream)
        try Self.validateName(durable)
        var config = ConsumerConfig(
            durableName: durable, filterSubject: filterSubject, ackWait: ackWait.nanoseconds, maxAckPending: maxAckPending)
        if let start {
            config.deliverPolicy = "by_start_time"
            config.optStartTime = start.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }
        do {
            _ = try await api(
                "CONSUMER.DURABLE.CREATE.\(stream).\(durable)",
                body: CreateConsumerRequest(streamName: stream, config: config), as: ConsumerInfo.self)
        } catch NATSError.jetStream(let error) where error.errCode == 10013 || error.errCode == 10148 {
            let existing = try await consumerInfo(stream: stream, durable: durable)
            let same =
                existing.filterSubject == filterSubject && existing.ackWait == ackWait
                && existing.maxAckPending == maxAckPending
            if !same { throw NATSError.jetStream(error) }
        }
    }

    public func consumerInfo(stream: String, durable: String) async throws -> ConsumerInfo {
        try Self.validateName(stream)
        try Self.validateName(durable)
        return try await api("CONSUMER.INFO.\(stream).\(durable)", as: ConsumerInfo.self)
    }

    public func deleteConsumer(stream: String, durable: String) async throws {
        try Self.validateName(stream)
        try Self.validateName(durable)
        _ = try await api("CONSUMER.DELETE.\(stream).\(durable)", as: SuccessResponse.self)
    }

    /// Pulls up to `batch` messages, waiting at most `expires` for them; returns what arrived
    /// (possibly nothing). The server's status messages end the pull (404 No Messages, 408
    /// Request Timeout, 409 …) or are skipped (100 heartbeats); they are never returned as data.
    /// A 409 (or other error status) before any message throws `NATSError.jetStreamStatus`; no
    /// answer at all by `expires` + 1 s (e.g. the consumer does not exist) throws `timeout`.
    /// `heartbeat`, if given, asks the server for idle heartbeats (status 100) during a long pull.
    public func fetch(
        stream: String, consumer: String, batch: Int, expires: Duration, heartbeat: Duration? = nil
    ) async throws -> [JetStreamMessage] {
        try await pull(stream: stream, consumer: consumer, batch: batch, expires: expires, heartbeat: heartbeat, noWait: false)
    }

    /// Up to `batch` messages that are there now, without waiting for more: the server sends
    /// what it has and ends the pull (404 when it has none). Nothing is left pulling once it
    /// returns, so no message can go to a request nobody reads.
    public func fetchAvailable(stream: String, consumer: String, batch: Int) async throws -> [JetStreamMessage] {
        try await pull(stream: stream, consumer: consumer, batch: batch, expires: timeout, heartbeat: nil, noWait: true)
    }

    private func pull(
        stream: String, consumer: String, batch: Int, expires: Duration, heartbeat: Duration?, noWait: Bool
    ) async throws -> [JetStreamMessage] {
        try Self.validateName(stream)
        try Self.validateName(consumer)
        guard batch > 0 else { return [] }
        let subject = "\(apiPrefix).CONSUMER.MSG.NEXT.\(stream).\(consumer)"
        let connection = self.connection
        let inbox = connection.newInbox()
        let replies = try await connection.subscribe(to: inbox)
        let sid = replies.sid
        let deadline = connection.channel.eventLoop.scheduleTask(in: TimeAmount(expires + Self.fetchGrace)) {
            connection.endSubscription(sid: sid)
        }
        defer {
            deadline.cancel()
            connection.endSubscription(sid: sid)
        }
        let body = try JSONEncoder().encode(
            PullRequest(batch: batch, expires: noWait ? nil : expires.nanoseconds, noWait: noWait, idleHeartbeat: heartbeat?.nanoseconds))
        try await connection.publish(Array(body), to: subject, reply: inbox)

        var messages: [JetStreamMessage] = []
        var answered = false  // a status or a full batch ended the pull, not our deadline
        pulling: for try await message in replies {
            if let status = message.status {
                switch status {
                case 100:
                    continue  // Idle heartbeat or flow control: the pull goes on.
                case 404, 408:
                    answered = true
                    break pulling  // No messages / request expired.
                case 503:
                    throw NATSError.noResponders(subject: subject)
                default:
                    if messages.isEmpty {
                        throw NATSError.jetStreamStatus(
                            code: status, description: message.statusDescription ?? "", subject: subject)
                    }
                    answered = true
                    break pulling
                }
            }
            guard let jsMessage = JetStreamMessage(message, connection: connection) else {
                throw NATSError.unexpectedResponse(
                    subject: subject, reason: "message on '\(message.subject)' has no JetStream ack subject")
            }
            messages.append(jsMessage)
            if messages.count >= batch {
                answered = true
                break
            }
        }
        try Task.checkCancellation()
        if !answered && messages.isEmpty {
            // A live consumer always ends an expired pull with 408; silence means the request
            // reached nobody, typically because the consumer does not exist.
            throw NATSError.timeout(subject: subject, after: expires + Self.fetchGrace)
        }
        return messages
    }

    // MARK: API plumbing

    struct Empty: Encodable {}

    func api<Response: Decodable>(_ operation: String, as type: Response.Type) async throws -> Response {
        try await api(operation, payload: [], as: type)
    }

    func api<Response: Decodable>(_ operation: String, body: some Encodable, as type: Response.Type) async throws -> Response {
        try await api(operation, payload: Array(try JSONEncoder().encode(body)), as: type)
    }

    private func api<Response: Decodable>(_ operation: String, payload: [UInt8], as type: Response.Type) async throws -> Response {
        let subject = "\(apiPrefix).\(operation)"
        let reply = try await connection.request(payload, to: subject, timeout: timeout)
        return try decode(reply, subject: subject, as: type)
    }

    private func decode<Response: Decodable>(_ reply: NATSMessage, subject: String, as type: Response.Type) throws -> Response {
        let data = Data(reply.payload)
        let decoder = JSONDecoder()
        if let envelope = try? decoder.decode(APIErrorEnvelope.self, from: data), let error = envelope.error {
            throw NATSError.jetStream(error)
        }
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw NATSError.unexpectedResponse(subject: subject, reason: "\(error); body: \(reply.string.prefix(200))")
        }
    }

    /// Stream and consumer names become subject tokens, so they cannot hold '.', wildcards or spaces.
    static func validateName(_ name: String) throws(NATSError) {
        if name.isEmpty || name.contains(where: { $0 == "." || $0 == "*" || $0 == ">" || $0.isWhitespace }) {
            throw .invalidSubject(name)
        }
    }
}
