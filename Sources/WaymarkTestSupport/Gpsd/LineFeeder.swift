import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A TCP server on 127.0.0.1 that writes a fixed list of chunks (NMEA lines) to whoever
/// connects: a stand-in for a GPS receiver that gpsd reads as `tcp://127.0.0.1:PORT`, or for
/// gpsd itself when a test needs to send a client exact bytes.
///
/// Chunks are shared by all connections in order: a new connection (gpsd restarted) carries on
/// where the last one stopped, as a receiver keeps talking while gpsd is away. With
/// `repeats`, the list starts over at its end; otherwise, once every chunk is written, the
/// connection is kept open and silent. Whatever the peer sends is read and ignored.
public final class LineFeeder: @unchecked Sendable {
    /// How fast chunks are written.
    public enum Pace: Sendable {
        /// Everything in one go (gpsd reads it as fast as it can: 8,234 fixes in about 1.3 s).
        case allAtOnce
        /// One chunk, then a pause.
        case interval(Duration)
    }

    /// The port the feeder listens on.
    public let port: Int

    private let chunks: [[UInt8]]
    private let pace: Pace
    private let repeats: Bool
    private let listener: Int32
    private let threads = DispatchGroup()
    // `lock` guards the three below.
    private let lock = NSLock()
    private var cursor = 0
    private var stopped = false
    private var connections = 0

    /// - Parameters:
    ///   - chunks: byte strings written verbatim, in order (include the line endings).
    ///   - pace: how fast they are written.
    ///   - repeats: whether to start over after the last chunk.
    public init(chunks: [[UInt8]], pace: Pace = .allAtOnce, repeats: Bool = false) throws {
        self.chunks = chunks
        self.pace = pace
        self.repeats = repeats && !chunks.isEmpty
        (listener, port) = try LoopbackSocket.listen()
        threads.enter()
        let thread = Thread { [self] in
            acceptLoop()
            threads.leave()
        }
        thread.name = "feeder :\(port)"
        thread.start()
    }

    /// A feeder for an NMEA log: its lines without the `#` header lines and blank lines, each
    /// ending with a newline.
    public convenience init(log: URL, pace: Pace = .allAtOnce, repeats: Bool = false) throws {
        try self.init(chunks: Self.lines(ofLog: log), pace: pace, repeats: repeats)
    }

    /// The lines of an NMEA log as chunks: `#` comment lines and blank lines left out; each
    /// keeps its carriage return, if any, and ends with `\n`.
    public static func lines(ofLog log: URL) throws -> [[UInt8]] {
        let bytes = [UInt8](try Data(contentsOf: log))
        return bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            .filter { $0.first != UInt8(ascii: "#") && !$0.allSatisfy { $0 == 0x0D || $0 == 0x20 } }
            .map { Array($0) + [UInt8(ascii: "\n")] }
    }

    /// Connections accepted so far.
    public var connectionCount: Int { lock.withLock { connections } }

    /// Chunks written so far (counting repeats).
    public var writtenCount: Int { lock.withLock { cursor } }

    /// Closes every connection and the listening socket and waits for the feeder's threads.
    public func shutdown() {
        let already = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        if already { return }
        _ = threads.wait(timeout: .now() + 2)
    }

    deinit { shutdown() }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            guard LoopbackSocket.waitReadable(listener, milliseconds: 20) else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            lock.withLock { connections += 1 }
            threads.enter()
            let thread = Thread { [self] in
                serve(connection)
                close(connection)
                threads.leave()
            }
            thread.name = "feeder :\(port) connection"
            thread.start()
        }
    }

    /// The next chunks to write: one, or all that are left when pacing is `allAtOnce`.
    private func take() -> [UInt8]? {
        lock.withLock {
            if case .allAtOnce = pace, !repeats {
                guard cursor < chunks.count else { return nil }
                defer { cursor = chunks.count }
                return chunks[cursor...].flatMap { $0 }
            }
            guard repeats || cursor < chunks.count else { return nil }
            defer { cursor += 1 }
            return chunks[cursor % chunks.count]
        }
    }

    private func serve(_ connection: Int32) {
        while !isStopped {
            guard LoopbackSocket.drain(connection) else { return }
            guard let bytes = take() else {
                // Everything written: stay connected and silent until the peer leaves.
                if LoopbackSocket.waitReadable(connection, milliseconds: 20), !LoopbackSocket.drain(connection) {
                    return
                }
                continue
            }
            guard LoopbackSocket.writeAll(connection, bytes) else { return }
            if case .interval(let pause) = pace {
                let (seconds, attoseconds) = pause.components
                let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
                if microseconds > 0 { usleep(UInt32(clamping: microseconds)) }
            }
        }
    }
}
