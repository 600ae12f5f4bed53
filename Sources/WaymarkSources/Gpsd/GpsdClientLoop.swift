import CGPS
import Logging
import WaymarkCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The body of a ``GpsdSource``'s reader thread: connect, watch, read reports, and reconnect
/// with backoff when the connection is lost, until a stop is requested.
///
/// It owns the `gps_data_t` (about 24 KB, not Sendable), allocated once and used only on this
/// thread; every libgps call blocks this thread and no other. While connected it sleeps in one
/// `poll` on gpsd's socket and the control's wake pipe, with no timeout: a quiet gpsd costs no
/// wake-ups, and `stop()` and `setWatching(_:)` take effect at once.
///
/// It reads gpsd's lines itself (non-blocking `recv` into a 16 KiB inbox) and hands libgps'
/// `gps_unpack` only the TPV and SKY reports it decodes, each exactly one JSON object with its
/// class first and no nested class (`JSONLineCheck`: fuzzing made libgps' parser loop forever
/// on a malformed line and on nested DEVICE objects); other classes are classified from the
/// raw line. Reports already waiting are read before anything
/// is handed on: the events they gave go out as one batch when the thread is about to sleep, or at
/// `batchLimit`. One report at a time, each is its own batch at once; a burst costs the
/// consumer one hand-over per batch, not per fix. Connection changes go out on their own.
final class GpsdClientLoop {
    /// Everything the thread needs from the source; all of it may cross threads.
    struct Configuration: Sendable {
        var host: String
        var port: Int
        var backoff: Backoff
        var logger: Logger
        var events: AsyncStream<[GpsdEvent]>.Continuation
        var control: GpsdControl
        /// While watching, this long without a byte from gpsd sends it `?POLL;`; as long again
        /// without an answer ends the connection (`GpsdSource`).
        var silenceLimit: Duration = .seconds(10)
    }

    /// Why the connection ended.
    private enum Ending {
        case stopped
        case lost(String)
    }

    /// Longest line copied out of libgps; a longer one is cut, loses its closing brace and is
    /// skipped as malformed. gpsd's largest reports (SKY with every satellite) are a few KB.
    static let messageCapacity = 16 * 1024
    /// Most events handed on in one batch.
    static let batchLimit = 256
    private let configuration: Configuration
    private let logger: Logger
    private let data: UnsafeMutablePointer<gps_data_t>
    private let message: UnsafeMutablePointer<CChar>
    /// What has been read from gpsd and not yet taken as lines (`buffered` bytes), and the line
    /// being taken.
    private let inbox: UnsafeMutablePointer<UInt8>
    private var buffered = 0
    private let line: UnsafeMutablePointer<UInt8>
    /// The last SKY report on the current connection.
    private var sky: GpsdSky?
    /// The receivers gpsd has open, across reconnections.
    private var receivers = ReceiverRoster()
    /// Whether the current outage has been reported with `.disconnected`.
    private var outageReported = false
    private var droppedEvents = 0
    /// Events read since the last hand-over.
    private var pending: [GpsdEvent] = []
    /// When gpsd last sent anything on this connection, and when a `?POLL;` went out unanswered.
    private var lastHeard = ContinuousClock.now
    private var probeSent: ContinuousClock.Instant?

    init(_ configuration: Configuration) {
        self.configuration = configuration
        self.logger = configuration.logger
        guard let memory = calloc(1, MemoryLayout<gps_data_t>.size) else {
            fatalError("cannot allocate \(MemoryLayout<gps_data_t>.size) bytes for gps_data_t")
        }
        data = memory.bindMemory(to: gps_data_t.self, capacity: 1)
        message = .allocate(capacity: Self.messageCapacity + 1)
        message.initialize(repeating: 0, count: Self.messageCapacity + 1)
        inbox = .allocate(capacity: Self.messageCapacity)
        inbox.initialize(repeating: 0, count: Self.messageCapacity)
        line = .allocate(capacity: Self.messageCapacity + 1)
        line.initialize(repeating: 0, count: Self.messageCapacity + 1)
    }

    deinit {
        free(data)
        message.deallocate()
        inbox.deallocate()
        line.deallocate()
    }

    /// Runs until a stop is requested, then finishes the event stream.
    func run() {
        let control = configuration.control
        var attempt = 0  // reconnection attempts since the connection was lost
        var firstAttempt = true
        while !control.wishes.stop {
            if !firstAttempt {
                if control.sleep(for: configuration.backoff.delay(attempt: attempt)) { break }
                attempt += 1
            }
            firstAttempt = false
            if let failure = open() {
                if outageReported {
                    logger.debug("gpsd still unreachable", metadata: ["gpsd.reason": "\(failure)"])
                } else {
                    report(lost: failure)
                }
                continue
            }
            attempt = 0
            outageReported = false
            let ending = serve()
            if case .stopped = ending, configuration.control.wishes.watching {
                // Tell gpsd this client no longer needs the receiver; errors no longer matter.
                _ = gps_stream(data, UInt32(WATCH_DISABLE), nil)
            }
            gps_close(data)
            sky = nil
            switch ending {
            case .stopped:
                logger.info("gpsd source stopped")
                emit(.disconnected(reason: "source stopped"))
            case .lost(let reason):
                report(lost: reason)
            }
        }
        configuration.events.finish()
    }

    private func report(lost reason: String) {
        outageReported = true
        logger.warning(
            "gpsd connection lost; reconnecting with backoff", metadata: ["gpsd.reason": "\(reason)"])
        emit(.disconnected(reason: reason))
    }

    /// Opens a connection; returns why it failed, or `nil` on success.
    private func open() -> String? {
        errno = 0
        guard gps_open(configuration.host, String(configuration.port), data) == 0 else {
            let code = errno
            return "cannot connect to gpsd: \(String(cString: gps_errstr(code)))"
        }
        // Non-blocking, so a partial line never blocks the thread in recv (which would delay
        // stop()); close-on-exec, so child processes do not inherit the socket.
        let descriptor = data.pointee.gps_fd
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        logger.info("connected to gpsd")
        emit(.connected(host: configuration.host, port: configuration.port))
        return nil
    }

    /// Reads reports until the connection is lost or a stop is requested.
    private func serve() -> Ending {
        var watching = false
        lastHeard = .now
        probeSent = nil
        buffered = 0
        while true {
            let wishes = configuration.control.wishes
            if wishes.stop { return .stopped }
            if watching, let silence = checkSilence() { return .lost(silence) }
            if wishes.watching != watching {
                let flags = wishes.watching ? UInt32(WATCH_ENABLE | WATCH_JSON) : UInt32(WATCH_DISABLE)
                errno = 0
                guard gps_stream(data, flags, nil) == 0 else {
                    return .lost("cannot send WATCH to gpsd: \(describeErrno())")
                }
                watching = wishes.watching
                lastHeard = .now
                probeSent = nil
                logger.info(watching ? "watching gpsd" : "stopped watching gpsd; the receiver may idle")
            }

            // A complete line already read: checked, unpacked by libgps, classified.
            if let length = takeLine() {
                let text = UnsafeBufferPointer(start: line, count: length)
                if JSONLineCheck.isOneObject(text) {
                    // libgps decodes only what is used from it, TPV and SKY, and only as gpsd
                    // writes them: the class first and no other object with a class inside
                    // (the fuzzer hung gps_unpack on nested "class":"DEVICE" objects).
                    if JSONLineCheck.isPlainReport(text, classes: ["TPV", "SKY"]) {
                        unpack(length)
                    } else {
                        message.withMemoryRebound(to: UInt8.self, capacity: length + 1) { $0.update(from: line, count: length + 1) }
                    }
                    handleMessage(length: length)
                } else {
                    skipped(length: length, why: "not one JSON object")
                }
                if pending.count >= Self.batchLimit { flush() }
                continue
            }
            guard buffered < Self.messageCapacity else { return .lost("gpsd sent a line longer than \(Self.messageCapacity) bytes") }
            errno = 0
            let received = recv(data.pointee.gps_fd, inbox + buffered, Self.messageCapacity - buffered, Int32(MSG_DONTWAIT))
            if received > 0 {
                buffered += received
                lastHeard = .now
                probeSent = nil
                continue
            }
            if received == 0 { return .lost("gpsd closed the connection") }
            let code = errno
            guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                return .lost("reading from gpsd failed: \(describeErrno(code))")
            }
            sleepUntilGpsdOrWish(timeout: watching ? silenceTimeout() : nil)
        }
    }


    /// Blocks until gpsd's socket has something (data, end of stream, an error), a wish
    /// changed, or `timeout` passed (nil: no timeout); a signal ends it early, which the loop
    /// treats like a wish.
    private func sleepUntilGpsdOrWish(timeout: Duration? = nil) {
        flush()
        var descriptors = [
            pollfd(fd: data.pointee.gps_fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: configuration.control.wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        let milliseconds = timeout.map { Int32(clamping: max(1, $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000)) } ?? -1
        _ = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        configuration.control.drainWakes()
    }

    /// A watched gpsd says nothing while its receiver says nothing, so silence alone proves
    /// nothing; a gpsd that does not answer `?POLL;` either is gone (a host that vanished, a
    /// gpsd that hangs) without its socket having closed. After `silenceLimit` of silence the
    /// probe goes out; after as long again without a byte, the reason to end the connection.
    private func checkSilence() -> String? {
        let now = ContinuousClock.now
        if let sent = probeSent {
            guard now - sent >= configuration.silenceLimit else { return nil }
            return "gpsd silent for \(Self.seconds(now - lastHeard)) s and no answer to ?POLL"
        }
        guard now - lastHeard >= configuration.silenceLimit else { return nil }
        // Straight to the socket (libgps' gps_send is variadic, out of Swift's reach).
        let probe = Array("?POLL;\n".utf8)
        errno = 0
        guard probe.withUnsafeBytes({ send(data.pointee.gps_fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == probe.count else {
            return "cannot send ?POLL to gpsd: \(describeErrno())"
        }
        logger.debug("gpsd silent; asking it for a POLL", metadata: ["gpsd.silent_s": "\(Self.seconds(now - lastHeard))"])
        probeSent = now
        return nil
    }

    /// How long until `checkSilence` has something to do.
    private func silenceTimeout() -> Duration {
        let since = probeSent ?? lastHeard
        return max(.milliseconds(1), configuration.silenceLimit - (ContinuousClock.now - since))
    }

    private static func seconds(_ duration: Duration) -> Int { Int(duration.components.seconds) }

    /// The first complete line in the inbox, moved (without its newline and a carriage return
    /// before it) into `line`, NUL-terminated; its length. Nil when no line is complete yet.
    private func takeLine() -> Int? {
        guard let newline = UnsafeBufferPointer(start: inbox, count: buffered).firstIndex(of: 0x0A) else { return nil }
        var length = newline
        if length > 0, inbox[length - 1] == 0x0D { length -= 1 }
        line.update(from: inbox, count: length)
        line[length] = 0
        let consumed = newline + 1
        buffered -= consumed
        if buffered > 0 { inbox.update(from: inbox + consumed, count: buffered) }
        return length
    }

    /// libgps decodes the line into `data` (gps_unpack parses a writable copy: `message` keeps
    /// the line as gpsd sent it, for the class and for log excerpts).
    private func unpack(_ length: Int) {
        message.withMemoryRebound(to: UInt8.self, capacity: length + 1) { $0.update(from: line, count: length + 1) }
        data.pointee.set &= ~gps_mask_t(PACKET_SET)
        _ = line.withMemoryRebound(to: CChar.self, capacity: length + 1) { gps_unpack($0, data) }
    }

    private func handleMessage(length: Int) {
        let report = message.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            GpsdReport.decode(message: UnsafeBufferPointer(start: bytes, count: length), data: data)
        }
        switch report {
        case .fix(let fix):
            pending.append(.fix(sky?.complete(fix) ?? fix))
        case .noFix(let time, let reason):
            pending.append(.gap(time: time, reason: reason))
        case .sky(let sky):
            self.sky = sky
        case .device(.device(let path, let activated)):
            if let change = receivers.device(path, activated: activated) {
                pending.append(.receiver(path: change.path, attached: change.attached))
            }
        case .device(.devices(let paths)):
            for change in receivers.list(paths) { pending.append(.receiver(path: change.path, attached: change.attached)) }
        case .error(let text):
            logger.warning("gpsd reported an error", metadata: ["gpsd.message": "\(text)"])
        case .ignored(let className):
            logger.trace("ignored gpsd report", metadata: ["gpsd.class": "\(className)"])
        case .malformed:
            skipped(length: length, why: "not a report")
        }
    }

    /// Logs a line that is passed over, with its first 120 bytes (of `message`, or of `line`
    /// when it never reached libgps).
    private func skipped(length: Int, why: String) {
        let excerpt: String
        if why == "not a report" {
            excerpt = message.withMemoryRebound(to: UInt8.self, capacity: length + 1) { bytes in
                String(decoding: UnsafeBufferPointer(start: bytes, count: min(length, 120)), as: UTF8.self)
            }
        } else {
            excerpt = String(decoding: UnsafeBufferPointer(start: line, count: min(length, 120)), as: UTF8.self)
        }
        logger.warning("skipped a line from gpsd that is \(why)", metadata: ["gpsd.line": "\(excerpt)"])
    }

    /// Hands on a connection change, after what was read before it (every way out of `serve`
    /// ends in one, so nothing read stays behind).
    private func emit(_ event: GpsdEvent) {
        flush()
        pending.append(event)
        flush()
    }

    /// Hands on the events read so far, as one batch.
    private func flush() {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        if case .dropped(let lost) = configuration.events.yield(batch) {
            let before = droppedEvents
            droppedEvents += lost.count
            if before == 0 || before / 1000 != droppedEvents / 1000 {
                logger.warning(
                    "events dropped: the consumer is not keeping up",
                    metadata: ["gpsd.dropped": "\(droppedEvents)"])
            }
        }
    }

    private func describeErrno(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
