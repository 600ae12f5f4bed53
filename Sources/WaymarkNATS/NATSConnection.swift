import Foundation
import Logging
import NIOCore
import NIOPosix

/// One client connection to a NATS server: publish, subscribe, request/reply and flush.
///
/// All calls are safe from any task. There is no reconnection: when the server goes away every
/// waiting call fails, later calls throw `NATSError.connectionClosed`, and the owner makes a new
/// connection. Requests share one `_INBOX.<random>.*` subscription made at connect time, so a
/// request costs one PUB and no SUB/UNSUB round trip.
public final class NATSConnection: Sendable {
    let channel: any Channel
    let core: NATSConnectionCore
    public let url: String
    public let serverInfo: NATSServerInfo
    let logger: Logger

    static let clientVersion = "0.1.0"

    private init(channel: any Channel, core: NATSConnectionCore, url: String, serverInfo: NATSServerInfo, logger: Logger) {
        self.channel = channel
        self.core = core
        self.url = url
        self.serverInfo = serverInfo
        self.logger = logger
    }

    /// Connects and completes the handshake (INFO, CONNECT, PING/PONG), so a returned connection
    /// has been accepted by the server. `url` is like "nats://127.0.0.1:4222".
    public static func connect(
        url: String, name: String, logger: Logger, timeout: Duration = .seconds(5)
    ) async throws -> NATSConnection {
        let target = try NATSURL(url)
        let core = NATSConnectionCore(url: url, logger: logger)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(TimeAmount(timeout))
                .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(NATSFrameDecoder()))
                        try channel.pipeline.syncOperations.addHandler(NATSChannelHandler(core: core))
                    }
                }
                .connect(host: target.host, port: target.port)
                .get()
        } catch {
            throw NATSError.connectionFailed(url: url, reason: describe(error))
        }

        do {
            let reply = try await core.wait(
                for: core.infoSlot, on: channel.eventLoop, timeout: timeout,
                timeoutError: .connectionFailed(url: url, reason: "no INFO from the server within \(timeout)"))
            guard case .info(let info) = reply else { throw NATSError.protocolViolation("expected INFO") }
            if info.tlsRequired {
                throw NATSError.connectionFailed(url: url, reason: "the server requires TLS, which this client does not support")
            }
            let connection = NATSConnection(channel: channel, core: core, url: url, serverInfo: info, logger: logger)
            let options = ConnectOptions(
                verbose: false, pedantic: false, headers: true, noResponders: true, name: name, lang: "swift",
                version: clientVersion, protocol: 1, user: target.user, pass: target.password)
            let json = String(decoding: try JSONEncoder().encode(options), as: UTF8.self)
            try await connection.send { buffer throws(NATSError) in
                NATSProtocol.writeConnect(json: json, into: &buffer)
                try NATSProtocol.writeSubscribe(
                    subject: core.inboxPrefix + "*", queue: nil, sid: NATSConnectionCore.inboxSID, into: &buffer)
            }
            try await connection.flush(timeout: timeout)
            core.handshakeCompleted()
            logger.debug("NATS connected", metadata: ["url": "\(url)", "server": "\(info.serverName ?? info.serverID)"])
            return connection
        } catch {
            core.fail(.connectionClosed(reason: "handshake failed"), expected: true)
            try? await channel.close()
            if let natsError = error as? NATSError, case .connectionFailed = natsError { throw natsError }
            throw NATSError.connectionFailed(url: url, reason: describe(error))
        }
    }

    struct ConnectOptions: Encodable {
        var verbose: Bool
        var pedantic: Bool
        var headers: Bool
        var noResponders: Bool
        var name: String
        var lang: String
        var version: String
        var `protocol`: Int
        var user: String?
        var pass: String?

        enum CodingKeys: String, CodingKey {
            case verbose, pedantic, headers, name, lang, version, `protocol`, user, pass
            case noResponders = "no_responders"
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? NATSError {
            switch error {
            case .connectionClosed(let reason): return reason
            case .serverError(let text): return "server error: \(text)"
            default: return error.description
            }
        }
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first {
            return "\(first.error)"
        }
        return "\(error)"
    }

    /// A connection dropped without `close()` must not keep its socket open forever.
    deinit {
        if core.closedError == nil {
            core.fail(.connectionClosed(reason: "connection released without close()"), expected: true)
            channel.close(promise: nil)
        }
    }

    /// Whether the connection is closed (by `close()`, the server, or an error).
    public var isClosed: Bool { core.closedError != nil }

    /// Why the connection closed, or nil while it is open.
    public var closeReason: NATSError? { core.closedError }

    // MARK: Publishing

    /// Publishes `payload` (PUB, or HPUB when there are headers). Returns once the bytes are
    /// handed to the socket; use `flush()` to know the server has processed them.
    public func publish(
        _ payload: [UInt8], to subject: String, reply: String? = nil, headers: [(String, String)] = []
    ) async throws {
        try await publish(payload, to: subject, reply: reply, headers: NATSHeaders(headers))
    }

    public func publish(_ payload: [UInt8], to subject: String, reply: String? = nil, headers: NATSHeaders) async throws {
        try checkSize(payload, headers)
        try await send { buffer throws(NATSError) in
            try NATSProtocol.writePublish(subject: subject, reply: reply, headers: headers, payload: payload, into: &buffer)
        }
    }

    /// Sends a request and waits for the first reply. A 503 status reply (nobody subscribed)
    /// throws `NATSError.noResponders` at once instead of waiting for the timeout.
    public func request(
        _ payload: [UInt8], to subject: String, headers: [(String, String)] = [], timeout: Duration
    ) async throws -> NATSMessage {
        try await request(payload, to: subject, headers: NATSHeaders(headers), timeout: timeout)
    }

    public func request(
        _ payload: [UInt8], to subject: String, headers: NATSHeaders, timeout: Duration
    ) async throws -> NATSMessage {
        try checkSize(payload, headers)
        let id = try core.makeSlot()
        do {
            try await send { buffer throws(NATSError) in
                try NATSProtocol.writePublish(
                    subject: subject, reply: core.inboxPrefix + String(id), headers: headers, payload: payload, into: &buffer)
            }
        } catch {
            core.discardSlot(id)
            throw error
        }
        let reply = try await core.wait(
            for: id, on: channel.eventLoop, timeout: timeout, timeoutError: .timeout(subject: subject, after: timeout))
        guard case .message(let message) = reply else {
            throw NATSError.protocolViolation("request on '\(subject)' answered by a non-message")
        }
        if message.status == 503 { throw NATSError.noResponders(subject: subject) }
        return message
    }

    /// Requests pipelined: every request is written, in order, in one write, then the replies
    /// are awaited. The server sees them in this order, which one-at-a-time requests from
    /// concurrent tasks would not promise; one round trip instead of one per request.
    public func requests(
        _ requests: [(payload: [UInt8], subject: String, headers: NATSHeaders)], timeout: Duration
    ) async throws -> [NATSMessage] {
        for request in requests { try checkSize(request.payload, request.headers) }
        var ids: [UInt64] = []
        do {
            for _ in requests { ids.append(try core.makeSlot()) }
            let slots = ids
            try await send { buffer throws(NATSError) in
                for (request, id) in zip(requests, slots) {
                    try NATSProtocol.writePublish(
                        subject: request.subject, reply: core.inboxPrefix + String(id), headers: request.headers,
                        payload: request.payload, into: &buffer)
                }
            }
        } catch {
            for id in ids { core.discardSlot(id) }
            throw error
        }
        var replies: [NATSMessage] = []
        replies.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() {
            let subject = requests[index].subject
            let reply: NATSReply
            do {
                reply = try await core.wait(
                    for: id, on: channel.eventLoop, timeout: timeout, timeoutError: .timeout(subject: subject, after: timeout))
            } catch {
                for later in ids[(index + 1)...] { core.discardSlot(later) }
                throw error
            }
            guard case .message(let message) = reply else {
                throw NATSError.protocolViolation("request on '\(subject)' answered by a non-message")
            }
            if message.status == 503 { throw NATSError.noResponders(subject: subject) }
            replies.append(message)
        }
        return replies
    }

    /// Sends PING and waits for PONG: every operation written before has been processed by the
    /// server. Also the cheapest liveness check.
    public func flush() async throws {
        try await flush(timeout: .seconds(10))
    }

    public func flush(timeout: Duration) async throws {
        let id = try core.makeSlot(awaitingPong: true)
        do {
            try await send { buffer throws(NATSError) in NATSProtocol.writePing(into: &buffer) }
        } catch {
            core.discardSlot(id)
            throw error
        }
        _ = try await core.wait(
            for: id, on: channel.eventLoop, timeout: timeout, timeoutError: .timeout(subject: "PING", after: timeout))
    }

    // MARK: Subscribing

    /// Subscribes to `subject` (wildcards allowed), in queue group `queue` if given. Iterate the
    /// result for messages; iteration ends after `unsubscribe()` and throws if the connection fails.
    public func subscribe(to subject: String, queue: String? = nil) async throws -> NATSSubscription {
        try NATSProtocol.validateSubject(subject)
        let (sid, stream) = try core.addSubscription { [weak self] sid in
            // The iterating task went away: tell the server.
            self?.endSubscription(sid: sid)
        }
        do {
            try await send { buffer throws(NATSError) in
                try NATSProtocol.writeSubscribe(subject: subject, queue: queue, sid: sid, into: &buffer)
            }
        } catch {
            core.removeSubscription(sid)
            throw error
        }
        return NATSSubscription(subject: subject, sid: sid, stream: stream, connection: self)
    }

    /// Ends subscription `sid` now without waiting: its iteration finishes and UNSUB is written
    /// (best effort). Used when the iterator goes away and for a pull's deadline.
    func endSubscription(sid: UInt64) {
        guard core.removeSubscription(sid), !isClosed else { return }
        var buffer = channel.allocator.buffer(capacity: 32)
        NATSProtocol.writeUnsubscribe(sid: sid, into: &buffer)
        channel.writeAndFlush(buffer, promise: nil)
    }

    func unsubscribe(sid: UInt64) async throws {
        guard core.removeSubscription(sid) else { return }
        try await send { buffer throws(NATSError) in NATSProtocol.writeUnsubscribe(sid: sid, into: &buffer) }
    }

    // MARK: Closing

    /// Closes the connection. Waiting calls fail with `connectionClosed`.
    public func close() async {
        core.fail(.connectionClosed(reason: "closed by the client"), expected: true)
        try? await channel.close()
    }

    // MARK: Internals

    /// A fresh subject for replies that need their own subscription (a pull's many messages
    /// arrive on their stream subjects, so only the subscription id tells them apart). Two tokens
    /// after the prefix, so the request inbox `_INBOX.<random>.*` does not match it.
    func newInbox() -> String {
        core.inboxPrefix + "sub." + NATSConnectionCore.randomToken()
    }

    private func checkSize(_ payload: [UInt8], _ headers: NATSHeaders) throws(NATSError) {
        let headerSize = headers.fields.reduce(headers.isEmpty ? 0 : 12) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        if payload.count + headerSize > serverInfo.maxPayload {
            throw .payloadTooLarge(size: payload.count + headerSize, maximum: serverInfo.maxPayload)
        }
    }

    func send(_ encode: (inout ByteBuffer) throws(NATSError) -> Void) async throws {
        if let error = core.closedError { throw error }
        var buffer = channel.allocator.buffer(capacity: 256)
        try encode(&buffer)
        do {
            try await channel.writeAndFlush(buffer)
        } catch {
            throw core.closedError ?? NATSError.connectionClosed(reason: "write failed: \(error)")
        }
    }
}

/// Messages of one subscription, in order. Ends after `unsubscribe()`; throws the connection's
/// error if the connection fails. Cancelling the task that iterates unsubscribes too; merely
/// breaking out of a `for` loop does not (call `unsubscribe()`).
public struct NATSSubscription: AsyncSequence, Sendable {
    public typealias Element = NATSMessage
    public typealias AsyncIterator = AsyncThrowingStream<NATSMessage, any Error>.AsyncIterator

    public let subject: String
    let sid: UInt64
    let stream: AsyncThrowingStream<NATSMessage, any Error>
    let connection: NATSConnection

    public func makeAsyncIterator() -> AsyncIterator { stream.makeAsyncIterator() }

    /// Stops delivery (UNSUB) and ends the iteration.
    public func unsubscribe() async throws {
        try await connection.unsubscribe(sid: sid)
    }
}
