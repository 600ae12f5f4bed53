import Dispatch
import Foundation
import GRDB
import Logging
import Synchronization

/// Copies the write-ahead log back into the database file on a thread and a connection of its
/// own, so the store writer does not stop to checkpoint while a fast source pours fixes in.
///
/// SQLite's default has the committing connection checkpoint each time the WAL passes 1,000
/// pages: at 100,000 fixes/s that is the store writer, a dozen times a second (about 5 % of
/// its time in `waymark bench ingest`). While a `StoreWriter` runs, its connection checkpoints
/// only past `fallbackPages` (a WAL that this thread cannot keep short, say while a long read
/// holds an old snapshot, still cannot grow without bound); after each group commit the writer
/// nudges this thread, which runs a PASSIVE checkpoint (it never waits for readers or the
/// writer) — at most one at a time, and one more if nudged meanwhile. Checkpoints move committed
/// pages only: what is durable, and when, does not change (docs/durability.md).
final class WALCheckpointer: Sendable {
    /// Pages the writer's own connection lets the WAL reach before it checkpoints itself (64 MiB).
    static let fallbackPages = 16_384
    /// SQLite's default, given back to the writer's connection at `close`.
    static let defaultPages = 1_000

    private struct State {
        var nudged = false
        var closed = false
    }

    private let connection: DatabaseQueue
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let logger: Logger

    /// Opens a plain connection to `path` (no SpatiaLite: a checkpoint needs none) and starts
    /// the thread.
    init(path: String, logger: Logger) throws {
        var configuration = Configuration()
        configuration.label = "WaymarkStore.checkpoint"
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.logger = logger
        Thread { [self] in
            Thread.current.name = "waymark-ckpt"
            run()
        }.start()
    }

    /// Asks for a checkpoint soon; never blocks.
    func nudge() {
        let signal = state.withLock { state in
            defer { state.nudged = true }
            return !state.nudged && !state.closed
        }
        if signal { wake.signal() }
    }

    /// Ends the thread after its current checkpoint, and waits for it.
    func close() {
        let signal = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard signal else { return }
        wake.signal()
        finished.wait()
    }

    private func run() {
        while true {
            wake.wait()
            let closed = state.withLock { state in
                state.nudged = false
                return state.closed
            }
            if closed { break }
            do {
                _ = try connection.writeWithoutTransaction { try $0.checkpoint(.passive) }
            } catch {
                logger.warning("WAL checkpoint failed; the writer's own checkpoints take over", metadata: ["error": "\(error)"])
            }
        }
        finished.signal()
    }
}
