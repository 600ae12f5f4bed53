#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A handler's side of Waymark, in the manner of Core Location: connect, then iterate
/// `events` (acknowledging each once it is safely handled), ask for background time, and
/// query region state or the last location. docs/handlers.md describes the protocol beneath.
///
/// ```swift
/// let client = try WaymarkHandlerClient.connect()
/// for await event in client.events {
///     let task = try await client.beginBackgroundTask("upload")
///     try save(event)
///     client.acknowledge(event)
///     client.endBackgroundTask(task)
/// }
/// ```
public final class WaymarkHandlerClient: @unchecked Sendable {
    /// Why it was started: `region`, `significantChange`, `visit`, `location`, or `user`.
    public let launchReason: String
    /// `background` (on a time budget) or `active` (started by the user).
    public let initialState: String
    /// Events in delivery order; ends when the daemon closes the connection.
    public let events: AsyncStream<LocationEvent>
    /// Expiration, willSuspend, didResume… in order.
    public let notices: AsyncStream<HandlerNotice>

    private let fd: Int32
    private let eventSink: AsyncStream<LocationEvent>.Continuation
    private let noticeSink: AsyncStream<HandlerNotice>.Continuation
    private let lock = NSLock()
    /// Waiters for replies, in request order (the daemon answers each connection in order).
    private var waiters: [CheckedContinuation<Reply, any Error>?] = []

    /// A reply message (JSON objects from JSONSerialization hold only value types).
    struct Reply: @unchecked Sendable {
        let message: [String: Any]
        subscript(_ key: String) -> Any? { message[key] }
    }
    private var closed = false

    /// Connects with what the daemon put in the environment (`WAYMARK_HANDLER_SOCKET`,
    /// `WAYMARK_HANDLER_NAME`, `WAYMARK_HANDLER_TOKEN`); a handler started by hand has no
    /// token and becomes active.
    public static func connect(environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> WaymarkHandlerClient {
        guard let socket = environment["WAYMARK_HANDLER_SOCKET"], let name = environment["WAYMARK_HANDLER_NAME"] else {
            throw WaymarkClientError("WAYMARK_HANDLER_SOCKET and WAYMARK_HANDLER_NAME are not set: start this program with `waymark handlers launch`")
        }
        return try await connect(socketPath: socket, name: name, token: environment["WAYMARK_HANDLER_TOKEN"])
    }

    public static func connect(socketPath: String, name: String, token: String?) async throws -> WaymarkHandlerClient {
        let fd = try openSocket(socketPath)
        var hello: [String: Any] = ["type": "hello", "handler": name]
        if let token { hello["token"] = token }
        try writeLine(fd, hello)
        var reader = LineReader(fd: fd)
        guard let first = reader.next(), let welcome = parse(first) else {
            close(fd)
            throw WaymarkClientError("the daemon closed the connection before welcoming \(name)")
        }
        guard welcome["type"] as? String == "welcome" else {
            close(fd)
            throw WaymarkClientError("the daemon refused \(name): \(welcome["message"] as? String ?? first)")
        }
        return WaymarkHandlerClient(fd: fd, welcome: welcome, reader: reader)
    }

    private init(fd: Int32, welcome: [String: Any], reader: LineReader) {
        self.fd = fd
        launchReason = welcome["launchReason"] as? String ?? ""
        initialState = welcome["state"] as? String ?? ""
        (events, eventSink) = AsyncStream.makeStream(of: LocationEvent.self)
        (notices, noticeSink) = AsyncStream.makeStream(of: HandlerNotice.self)
        let thread = Thread { [self] in
            var reader = reader
            while let line = reader.next() {
                if let message = Self.parse(line) { dispatch(message) }
            }
            finish()
        }
        thread.name = "waymark-client-read"
        thread.start()
    }

    /// Tells the daemon the event is handled: it will not be sent again.
    public func acknowledge(_ event: LocationEvent) { send(["type": "ack", "id": event.id]) }

    /// Done with what this wake needed, for every event up to `event` (default: every event
    /// received so far), and whether that was useful work. When true, the daemon suspends the
    /// handler at once and it keeps its full background time; said too early (a task open, an
    /// event unacknowledged) it is answered with an `error` notice and counts as a misreport,
    /// and misreports and periods not finished in time cost background time (docs/handlers.md).
    /// How a background fetch went (`--fetch-interval`): `noData` and `failed` make the daemon
    /// fetch less often, `newData` brings it back to the interval asked for.
    public enum FetchResult: String, Sendable {
        case newData, noData, failed
    }

    /// Done with a background fetch (an event of kind `fetch`), saying how it went; counts as
    /// `finished` with `useful` true for `newData`.
    public func finishedFetch(_ result: FetchResult, through event: LocationEvent? = nil) {
        var message: [String: Any] = ["type": "finished", "result": result.rawValue]
        if let event { message["through"] = event.id }
        send(message)
    }

    /// Moves the handler from `active` (launched by the user) to the background: it gets
    /// `didEnterBackground` and its time budget applies from then on.
    public func enterBackground() { send(["type": "enterBackground"]) }

    public func finished(useful: Bool, through event: LocationEvent? = nil) {
        var message: [String: Any] = ["type": "finished", "useful": useful]
        if let event { message["through"] = event.id }
        send(message)
    }

    /// A named background task: more time (up to the cap) until it is ended.
    public struct BackgroundTask: Sendable {
        public let token: String
        public let name: String
        /// Seconds of background time left when it began; nil while active.
        public let remaining: Double?
    }

    public func beginBackgroundTask(_ name: String) async throws -> BackgroundTask {
        let reply = try await request(["type": "beginBackgroundTask", "name": name])
        guard let token = reply["token"] as? String else { throw WaymarkClientError("no token in \(reply)") }
        return BackgroundTask(token: token, name: name, remaining: (reply["backgroundTimeRemaining"] as? NSNumber)?.doubleValue)
    }

    public func endBackgroundTask(_ task: BackgroundTask) {
        lock.withLock {
            waiters.append(nil)  // its reply is not awaited
            send(["type": "endBackgroundTask", "token": task.token])
        }
    }

    /// Seconds of background time left; nil while active (unbounded).
    public func backgroundTimeRemaining() async throws -> Double? {
        (try await request(["type": "backgroundTimeRemaining"])["backgroundTimeRemaining"] as? NSNumber)?.doubleValue
    }

    /// Whether `device` (default `local`, the gpsd receiver; an event's `device` for the device
    /// that caused it) is inside `region`. Throws a `WaymarkClientError` with code
    /// `handler.unknown-device` when the daemon knows no such device.
    public func regionState(_ region: String, device: String? = nil) async throws -> RegionStateAnswer {
        let value = try await answer(["type": "regionState", "region": region], device: device) as? [String: Any]
        return RegionStateAnswer(state: value?["state"] as? String, since: value?["since"] as? String)
    }

    /// `device`'s most recent fix (default `local`) as its JSON object (`kind`, `time`,
    /// `latitude`, `longitude`, `device`, …), nil when there is none. Throws a
    /// `WaymarkClientError` with code `handler.unknown-device` when the daemon knows no such device.
    public func lastLocation(device: String? = nil) async throws -> String? {
        guard let value = try await answer(["type": "lastLocation"], device: device) as? [String: Any] else { return nil }
        return String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    // MARK: Plumbing

    /// Sends `message` and waits for its reply. Queuing the waiter and writing happen under one
    /// lock, so concurrent requests get their own replies.
    private func request(_ message: [String: Any]) async throws -> Reply {
        try await withCheckedThrowingContinuation { continuation in
            let sent = lock.withLock { () -> Bool in
                if closed { return false }
                waiters.append(continuation)
                send(message)
                return true
            }
            if !sent { continuation.resume(throwing: WaymarkClientError("the connection is closed")) }
        }
    }

    /// A query's `value`, or its `error` thrown.
    private func answer(_ query: [String: Any], device: String?) async throws -> Any? {
        var query = query
        if let device { query["device"] = device }
        let reply = try await request(query)
        if let error = reply["error"] as? [String: Any] {
            throw WaymarkClientError(error["message"] as? String ?? "the daemon could not answer \(query)", code: error["code"] as? String)
        }
        return reply["value"]
    }

    private func send(_ message: [String: Any]) { try? Self.writeLine(fd, message) }


    private func dispatch(_ message: [String: Any]) {
        switch message["type"] as? String {
        case "event":
            if let event = LocationEvent(message: message) { eventSink.yield(event) }
        case "expiration":
            noticeSink.yield(.expiration(
                token: message["token"] as? String ?? "", secondsLeft: (message["backgroundTimeRemaining"] as? NSNumber)?.doubleValue ?? 0))
        case "willSuspend": noticeSink.yield(.willSuspend)
        case "didResume": noticeSink.yield(.didResume)
        case "didBecomeActive": noticeSink.yield(.didBecomeActive)
        case "didEnterBackground": noticeSink.yield(.didEnterBackground)
        case "willTerminate": noticeSink.yield(.willTerminate)
        case "didReceiveMemoryWarning": noticeSink.yield(.didReceiveMemoryWarning)
        case "error": noticeSink.yield(.error(message["message"] as? String ?? ""))
        case "backgroundTask", "backgroundTaskEnded", "backgroundTimeRemaining", "answer":
            let waiter: CheckedContinuation<Reply, any Error>?? = lock.withLock { waiters.isEmpty ? nil : waiters.removeFirst() }
            if case .some(.some(let continuation)) = waiter { continuation.resume(returning: Reply(message: message)) }
        default: break
        }
    }

    private func finish() {
        let pending = lock.withLock { () -> [CheckedContinuation<Reply, any Error>?] in
            closed = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in pending { waiter?.resume(throwing: WaymarkClientError("the daemon closed the connection")) }
        eventSink.finish()
        noticeSink.finish()
        close(fd)
    }

    private static func parse(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    private static func writeLine(_ fd: Int32, _ message: [String: Any]) throws {
        var data = try JSONSerialization.data(withJSONObject: message)
        data.append(10)
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 {
                    if errno == EINTR { continue }
                    throw WaymarkClientError("writing to the daemon: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }

    private static func openSocket(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw WaymarkClientError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw WaymarkClientError("\(path) is too long for a Unix socket path")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, byte) in bytes.enumerated() { buffer[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw WaymarkClientError("cannot connect to \(path): \(message)")
        }
        return fd
    }
}

/// Blocking newline-delimited reads from a descriptor.
struct LineReader {
    let fd: Int32
    private var pending: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    mutating func next() -> String? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return nil }
            pending.append(contentsOf: buffer[0..<count])
        }
    }
}
