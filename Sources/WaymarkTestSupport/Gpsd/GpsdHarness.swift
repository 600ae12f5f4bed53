import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A real gpsd reading a recorded NMEA log, on ports of its own, for tests.
///
/// The harness runs `gpsd -N -b -S PORT tcp://127.0.0.1:FEEDPORT` (foreground, read-only,
/// its own client port) and a ``LineFeeder`` serving the log on `FEEDPORT`. Without `-n`
/// gpsd opens the feed only when its first client watches, so the feeder's first line
/// reaches a watching client: nothing is lost to a race, and the reports are gpsd's regression
/// output (`.chk`) line for line.
///
/// Both ports come from the kernel, so tests may run in parallel. Every gpsd started is
/// killed by ``shutdown()``, which `deinit` also calls, and (through `setpriv --pdeathsig`)
/// by the kernel if the test process dies first.
///
/// Waiting for gpsd (``start()``, ``stopGpsd(signal:)``) suspends the caller and polls: no
/// thread of the cooperative pool is blocked while gpsd starts or stops.
public final class GpsdHarness: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The port clients connect to; the same across restarts.
    public let port: Int
    /// What gpsd reads.
    public let feeder: LineFeeder

    private let directory: TemporaryDirectory
    // `lock` guards the three below.
    private let lock = NSLock()
    private var process: Process?
    private var runs = 0
    private var readyAt: ContinuousClock.Instant?

    /// A harness whose gpsd will read `feeder`. Nothing runs until ``start()``.
    public init(feeder: LineFeeder) throws {
        self.feeder = feeder
        self.directory = try TemporaryDirectory(prefix: "waymark-gpsd")
        self.port = try LoopbackSocket.freePort()
    }

    /// A harness for an NMEA log; see ``LineFeeder/init(log:pace:repeats:)``.
    public convenience init(log: URL, pace: LineFeeder.Pace = .allAtOnce, repeats: Bool = false) throws {
        try self.init(feeder: LineFeeder(log: log, pace: pace, repeats: repeats))
    }

    /// The receiver as gpsd names it: the feeder's address.
    public var devicePath: String { "tcp://127.0.0.1:\(feeder.port)" }

    /// gpsd's control socket (`-F`), through which devices are added and removed as hotplug
    /// scripts do (`gpsdctl`).
    public var controlSocket: String { directory.path("control.sock") }

    /// Tells gpsd to add (`+PATH`) or remove (`-PATH`) a device, as `gpsdctl` does; gpsd's
    /// answer (`OK`, `ERROR`).
    public func control(_ command: String) async throws -> String {
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            s.sendall(sys.argv[2].encode() + b"\\n")
            print(s.recv(100).decode().strip())
            """
        let result = try await runPython(script, [controlSocket, command])
        guard result.status == 0 else { throw Failure(description: "gpsd control \(command): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// When the running gpsd started accepting clients.
    public var gpsdReadyAt: ContinuousClock.Instant? { lock.withLock { readyAt } }

    /// Whether a gpsd started by this harness is running.
    public var isGpsdRunning: Bool { lock.withLock { process?.isRunning ?? false } }

    /// Starts gpsd and returns once it accepts connections (within 5 s, or throws with its
    /// log).
    public func start() async throws {
        let process = Process()
        let gpsd = ["/usr/sbin/gpsd", "-N", "-b", "-F", controlSocket, "-S", String(port), devicePath]
        if FileManager.default.isExecutableFile(atPath: Self.setpriv) {
            // gpsd gets SIGKILL if the thread that started it ends: a crashed or killed test
            // run leaves no gpsd behind. setpriv execs gpsd, so the process id stays gpsd's.
            process.executableURL = URL(fileURLWithPath: Self.setpriv)
            process.arguments = ["--pdeathsig", "KILL", "--"] + gpsd
        } else {
            process.executableURL = URL(fileURLWithPath: gpsd[0])
            process.arguments = Array(gpsd.dropFirst())
        }
        let run = lock.withLock {
            runs += 1
            return runs
        }
        let logPath = directory.path("gpsd-\(run).log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try await Self.launch(process)
        lock.withLock {
            self.process = process
            readyAt = nil
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if LoopbackSocket.accepts(port: port) {
                lock.withLock { readyAt = .now }
                return
            }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        Self.reap(process)
        lock.withLock {
            self.process = nil
            readyAt = nil
        }
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        throw Failure(description: "gpsd did not start on port \(port): \(log)")
    }

    private static let setpriv = "/usr/bin/setpriv"

    /// Starts `process` from a thread of its own that lives exactly as long as the process:
    /// the parent-death signal follows the starting thread, not the test process, so starting
    /// gpsd from a pool thread that later exits would kill it mid-test.
    private static func launch(_ process: Process) async throws {
        try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                do {
                    try process.run()
                } catch {
                    started.resume(throwing: error)
                    return
                }
                started.resume()
                while process.isRunning { usleep(10_000) }
            }
            thread.name = "gpsd launcher"
            thread.start()
        }
    }

    /// Stops gpsd with `signal` (SIGTERM: a clean exit; SIGKILL: a crash) and waits for it to
    /// exit, killing it if it takes longer than 2 s.
    public func stopGpsd(signal: Int32 = SIGTERM) async throws {
        guard let process = takeProcess(), process.isRunning else { return }
        kill(process.processIdentifier, signal)
        let deadline = ContinuousClock.now + .seconds(2)
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        Self.reap(process)
    }

    /// Stops gpsd and starts a new one on the same port.
    public func restartGpsd(signal: Int32 = SIGTERM) async throws {
        try await stopGpsd(signal: signal)
        try await start()
    }

    /// Kills gpsd and shuts the feeder down. Synchronous, for `defer` and `deinit`: it blocks
    /// only for a moment, while a SIGKILLed gpsd is reaped and the feeder's threads (which look
    /// up every 20 ms) end.
    public func shutdown() {
        if let process = takeProcess() { Self.reap(process) }
        feeder.shutdown()
    }

    /// The running gpsd, which the harness forgets.
    private func takeProcess() -> Process? {
        lock.withLock {
            defer { process = nil; readyAt = nil }
            return process
        }
    }

    /// Sends SIGKILL to `process` unless it has exited, and reaps it: a moment.
    private static func reap(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// What the gpsd runs so far wrote to stderr, for failure messages.
    public var gpsdLog: String {
        let count = lock.withLock { runs }
        return (1...max(1, count)).compactMap {
            try? String(contentsOfFile: directory.path("gpsd-\($0).log"), encoding: .utf8)
        }.joined(separator: "\n")
    }

    deinit { shutdown() }
}
