import Foundation
import Logging
import WaymarkCore

/// Live fixes from a gpsd daemon, through libgps.
///
/// One dedicated thread connects (`gps_open`), watches (`gps_stream(WATCH_ENABLE|WATCH_JSON)`)
/// and reads reports (its own line reader, each well-formed line decoded by `gps_unpack`;
/// `GpsdClientLoop`); results arrive on ``events``, in batches
/// (the reports one read found waiting; one at a time when they come one at a time):
/// - every TPV report with gpsd mode 2 or 3 is a ``GpsdEvent/fix(_:)`` (mode 2 → `.twoD`,
///   3 → `.threeD`), with eph/epv/epx/epy, speed, course and altitude (MSL, else HAE) when
///   gpsd gives them, and the satellites used and dilutions of the last SKY report;
/// - a TPV with mode 0 or 1 is a ``GpsdEvent/gap(time:reason:)``;
/// - the report class is read from the raw line, so SKY reports never repeat a fix;
/// - a line that is not a report is logged and skipped.
///
/// When gpsd is absent, stops or restarts, the source reports ``GpsdEvent/disconnected(reason:)``
/// once and reconnects with ``Backoff`` (by default 0.1 s doubling to 1 s, so fixes resume
/// within about 1 s of gpsd's return) until ``stop()``.
///
/// While watching, a connection with nothing from gpsd for `silenceLimit` (10 s) gets a
/// `?POLL;`, which a live gpsd answers whether or not its receiver reports; with no answer
/// within as long again the connection is ended as lost (`disconnected`, then a gap in the
/// history) and opened anew: a gpsd that hangs, or a host that vanished without closing its
/// socket, is noticed in about twice the limit.
public final class GpsdSource: Sendable {
    public let host: String
    public let port: Int
    /// The source's events in order, in batches, for one consumer. Ends after ``stop()``.
    public let events: AsyncStream<[GpsdEvent]>

    private let continuation: AsyncStream<[GpsdEvent]>.Continuation
    private let control = GpsdControl()
    private let logger: Logger
    private let backoff: Backoff
    private let silenceLimit: Duration

    /// - Parameters:
    ///   - host: gpsd's host name or address.
    ///   - port: gpsd's TCP port (2947 is gpsd's registered port).
    ///   - logger: where connection changes and skipped lines are logged; `gpsd.host` and
    ///     `gpsd.port` are added to its metadata.
    ///   - backoff: the waits between reconnection attempts.
    ///   - bufferLimit: batches kept for a slow consumer; beyond it the oldest are dropped
    ///     (and the drop logged), since a live position matters more than an old one.
    ///   - silenceLimit: silence while watching before gpsd is asked whether it is there.
    public init(
        host: String = "127.0.0.1", port: Int = 2947, logger: Logger, backoff: Backoff = .default,
        bufferLimit: Int = 65_536, silenceLimit: Duration = .seconds(10)
    ) {
        self.silenceLimit = silenceLimit
        self.host = host
        self.port = port
        var logger = logger
        logger[metadataKey: "gpsd.host"] = "\(host)"
        logger[metadataKey: "gpsd.port"] = "\(port)"
        self.logger = logger
        self.backoff = backoff
        (events, continuation) = AsyncStream.makeStream(
            of: [GpsdEvent].self, bufferingPolicy: .bufferingNewest(max(1, bufferLimit)))
    }

    deinit { stop() }

    /// Starts the reader thread. Does nothing if it is already running or the source was
    /// stopped.
    public func start() {
        guard control.claimStart() else { return }
        let configuration = GpsdClientLoop.Configuration(
            host: host, port: port, backoff: backoff, logger: logger, events: continuation,
            control: control, silenceLimit: silenceLimit)
        Thread {
            // Named from inside: on Linux a name given before `start` does not reach the kernel,
            // and the thread would show up in `top -H` under its creator's name.
            Thread.current.name = "waymark-gpsd"
            GpsdClientLoop(configuration).run()
            configuration.control.markFinished()
        }.start()
    }

    /// Whether gpsd should stream reports. When nothing needs the position, `false` sends
    /// `WATCH_DISABLE`, so gpsd can let the receiver idle; `true` watches again. Applies to
    /// the current connection within about 50 ms and to every later one. Watching is on
    /// until switched off.
    public func setWatching(_ on: Bool) {
        control.setWatching(on)
    }

    /// Stops watching, closes the connection (`gps_close`), joins the reader thread and ends
    /// ``events``. Blocks for up to about 50 ms (longer only while `gps_open` is connecting to
    /// an unresponsive remote host). Safe to call more than once.
    public func stop() {
        control.requestStop()
        if control.hasStarted {
            control.waitUntilFinished()
        } else {
            continuation.finish()
        }
    }

    /// Starts the source and suspends until it is stopped; cancelling the calling task stops
    /// it. This is the body of the daemon's gpsd service.
    public func run() async {
        start()
        let control = self.control
        await withTaskCancellationHandler {
            await control.finishedAsync()
        } onCancel: {
            control.requestStop()
        }
    }
}
