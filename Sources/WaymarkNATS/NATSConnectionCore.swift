import Logging
import NIOCore

/// What a waiting call receives.
enum NATSReply: Sendable {
    case message(NATSMessage)
    case pong
    case info(NATSServerInfo)
}

/// The connection's shared state: subscriptions, waiting calls (requests, flushes, the handshake)
/// and whether the connection is closed. The channel handler feeds it from the event loop and
/// callers use it from any task; one lock guards it all, and continuations are always resumed
/// outside the lock.
final class NATSConnectionCore: Sendable {
    typealias MessageContinuation = AsyncThrowingStream<NATSMessage, any Error>.Continuation

    /// A waiting call. A slot is created before the work that answers it is sent, so an answer
    /// (or a timeout or a cancellation) that comes before the continuation is registered is kept
    /// in `.done` rather than lost.
    enum Slot {
        case pending
        case done(Result<NATSReply, any Error>)
        case waiting(CheckedContinuation<NATSReply, any Error>)
    }

    struct State {
        var closedError: NATSError?
        var nextID: UInt64 = 0
        var slots: [UInt64: Slot] = [:]
        /// Slots waiting for PONG, oldest first: each PONG answers the oldest PING.
        var pongQueue: [UInt64] = []
        var subscriptions: [UInt64: MessageContinuation] = [:]
        var nextSID: UInt64 = 1
        /// Set once CONNECT has been answered: a failure after it is a lost connection worth logging.
        var handshakeDone = false
        var infoReceived = false
        var lastServerError: String?
    }

    let state = LockedBox(State())
    let logger: Logger
    let url: String
    /// Subscription id of the connection's `_INBOX.<random>.*` subscription.
    static let inboxSID: UInt64 = 1
    let inboxPrefix: String
    /// Slot the INFO is delivered to.
    let infoSlot: UInt64
    /// Per-subscription buffer: past this a slow subscriber loses messages (logged), as the server
    /// itself would cut off a slow consumer, rather than the process growing without bound.
    static let subscriptionBufferLimit = 65_536

    init(url: String, logger: Logger) {
        self.url = url
        self.logger = logger
        self.inboxPrefix = "_INBOX." + Self.randomToken() + "."
        self.infoSlot = 0
        state.withLockedValue { s in
            s.slots[0] = .pending
            s.nextID = 1
            s.nextSID = Self.inboxSID + 1
        }
    }

    static func randomToken() -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        return String((0..<22).map { _ in alphabet.randomElement()! })
    }

    var closedError: NATSError? { state.withLockedValue { $0.closedError } }

    func handshakeCompleted() { state.withLockedValue { $0.handshakeDone = true } }

    // MARK: Slots

    /// Creates a slot; `alsoPong` queues it for the next PONG in the same critical section that
    /// the caller then writes PING after (so PONGs stay matched to PINGs in order).
    func makeSlot(awaitingPong: Bool = false) throws(NATSError) -> UInt64 {
        let result: Result<UInt64, NATSError> = state.withLockedValue { s in
            if let error = s.closedError { return .failure(error) }
            let id = s.nextID
            s.nextID += 1
            s.slots[id] = .pending
            if awaitingPong { s.pongQueue.append(id) }
            return .success(id)
        }
        return try result.get()
    }

    /// Completes a slot once; later completions are ignored.
    func complete(_ id: UInt64, with result: Result<NATSReply, any Error>) {
        let continuation: CheckedContinuation<NATSReply, any Error>? = state.withLockedValue { s in
            switch s.slots[id] {
            case .pending:
                s.slots[id] = .done(result)
                return nil
            case .waiting(let c):
                s.slots[id] = nil
                return c
            case .done, nil:
                return nil
            }
        }
        continuation?.resume(with: result)
    }

    func discardSlot(_ id: UInt64) {
        _ = state.withLockedValue { $0.slots.removeValue(forKey: id) }
    }

    /// Waits for slot `id`, failing it with `timeoutError` after `timeout` and with
    /// `CancellationError` when the task is cancelled.
    func wait(
        for id: UInt64, on eventLoop: any EventLoop, timeout: Duration, timeoutError: NATSError
    ) async throws -> NATSReply {
        let timer = eventLoop.scheduleTask(in: .init(timeout)) { [self] in
            complete(id, with: .failure(timeoutError))
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<NATSReply, any Error>) in
                let ready: Result<NATSReply, any Error>? = state.withLockedValue { s in
                    switch s.slots[id] {
                    case .pending:
                        s.slots[id] = .waiting(continuation)
                        return nil
                    case .done(let result):
                        s.slots[id] = nil
                        return result
                    case .waiting, nil:
                        return .failure(s.closedError ?? NATSError.connectionClosed(reason: "request abandoned"))
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: { [self] in
            complete(id, with: .failure(CancellationError()))
        }
    }

    // MARK: Subscriptions

    /// Registers a subscription; `onTermination` runs when its stream ends for any reason.
    func addSubscription(
        onTermination: @escaping @Sendable (UInt64) -> Void
    ) throws(NATSError) -> (sid: UInt64, stream: AsyncThrowingStream<NATSMessage, any Error>) {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: NATSMessage.self, throwing: (any Error).self,
            bufferingPolicy: .bufferingOldest(Self.subscriptionBufferLimit))
        let result: Result<UInt64, NATSError> = state.withLockedValue { s in
            if let error = s.closedError { return .failure(error) }
            let sid = s.nextSID
            s.nextSID += 1
            s.subscriptions[sid] = continuation
            return .success(sid)
        }
        switch result {
        case .success(let sid):
            continuation.onTermination = { _ in onTermination(sid) }
            return (sid, stream)
        case .failure(let error):
            continuation.finish(throwing: error)
            throw error
        }
    }

    /// Forgets subscription `sid`; returns whether it was still active (so UNSUB is sent once).
    @discardableResult
    func removeSubscription(_ sid: UInt64) -> Bool {
        guard let continuation = state.withLockedValue({ $0.subscriptions.removeValue(forKey: sid) }) else {
            return false
        }
        continuation.finish()
        return true
    }

    // MARK: Inbound (event loop)

    func received(_ op: NATSServerOp) {
        switch op {
        case .info(let json):
            do {
                let info = try NATSServerInfo.decode(json)
                let first = state.withLockedValue { s -> Bool in
                    defer { s.infoReceived = true }
                    return !s.infoReceived
                }
                if first {
                    complete(infoSlot, with: .success(.info(info)))
                } else {
                    logger.debug("NATS INFO update", metadata: ["server": "\(info.serverName ?? info.serverID)"])
                }
            } catch {
                fail(NATSError.protocolViolation("undecodable INFO: \(error)"))
            }
        case .pong:
            let id: UInt64? = state.withLockedValue { s in
                s.pongQueue.isEmpty ? nil : s.pongQueue.removeFirst()
            }
            if let id { complete(id, with: .success(.pong)) }
        case .message(let sid, let message):
            deliver(sid: sid, message)
        case .ping, .ok:
            break  // PING is answered by the channel handler.
        case .err(let text):
            state.withLockedValue { $0.lastServerError = text }
            logger.warning("NATS server error", metadata: ["error": "\(text)", "url": "\(url)"])
        }
    }

    /// Errors after which the server keeps the connection open.
    static func isRecoverable(serverError text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("permissions violation") || lowered.hasPrefix("invalid subject")
            || lowered.hasPrefix("invalid publish subject")
    }

    private func deliver(sid: UInt64, _ message: NATSMessage) {
        if sid == Self.inboxSID {
            guard message.subject.hasPrefix(inboxPrefix), let id = UInt64(message.subject.dropFirst(inboxPrefix.count))
            else { return }
            complete(id, with: .success(.message(message)))
            return
        }
        guard let continuation = state.withLockedValue({ $0.subscriptions[sid] }) else { return }
        if case .dropped = continuation.yield(message) {
            logger.warning(
                "NATS slow subscriber: message dropped", metadata: ["subject": "\(message.subject)", "sid": "\(sid)"])
        }
    }

    /// Marks the connection closed and fails everything waiting. The first reason wins.
    /// `expected` (the owner closed it) keeps the log quiet.
    func fail(_ error: NATSError, expected: Bool = false) {
        let (slots, subscriptions, firstFailure): ([CheckedContinuation<NATSReply, any Error>], [MessageContinuation], Bool) =
            state.withLockedValue { s in
                let first = s.closedError == nil
                if first { s.closedError = error }
                var waiting: [CheckedContinuation<NATSReply, any Error>] = []
                for (id, slot) in s.slots {
                    switch slot {
                    case .pending: s.slots[id] = .done(.failure(s.closedError!))
                    case .waiting(let c):
                        waiting.append(c)
                        s.slots[id] = nil
                    case .done: break
                    }
                }
                s.pongQueue.removeAll()
                defer { s.subscriptions.removeAll() }
                return (waiting, Array(s.subscriptions.values), first && s.handshakeDone)
            }
        if firstFailure && !expected {
            logger.warning("NATS connection lost", metadata: ["url": "\(url)", "reason": "\(error)"])
        }
        let reason = closedError ?? error
        for c in slots { c.resume(throwing: reason) }
        for c in subscriptions { c.finish(throwing: reason) }
    }

    /// The error to report when the channel went away without an earlier reason.
    func closedByPeer() {
        let last = state.withLockedValue { $0.lastServerError }
        fail(.connectionClosed(reason: last.map { "server closed the connection after -ERR '\($0)'" } ?? "server closed the connection"))
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let nanos = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        self = .nanoseconds(nanos.overflow ? Int64.max : nanos.partialValue &+ attoseconds / 1_000_000_000)
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// Frames in, server operations to the core; answers PING; turns decoder errors and EOF into a
/// closed connection with a reason.
final class NATSChannelHandler: ChannelInboundHandler {
    typealias InboundIn = NATSServerOp
    typealias OutboundOut = ByteBuffer

    let core: NATSConnectionCore

    init(core: NATSConnectionCore) { self.core = core }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let op = unwrapInboundIn(data)
        switch op {
        case .ping:
            var buffer = context.channel.allocator.buffer(capacity: 6)
            NATSProtocol.writePong(into: &buffer)
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        case .err(let text) where !NATSConnectionCore.isRecoverable(serverError: text):
            core.received(op)
            core.fail(.serverError(text))
            context.close(promise: nil)
            return
        default:
            break
        }
        core.received(op)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? NATSError {
            core.fail(error)
        } else {
            core.fail(.connectionClosed(reason: "\(error)"))
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        core.closedByPeer()
        context.fireChannelInactive()
    }
}
