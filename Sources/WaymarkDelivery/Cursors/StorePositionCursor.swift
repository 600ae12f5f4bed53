import Logging
import WaymarkOutputs
import WaymarkStore

/// The single daemon's cursor over the history's fixes for an output's positions
/// (docs/outputs.md): fixes after the output's location cursor, 512 at a time, waiting for a
/// commit of fixes (`wakes`) or a held fix falling due when there are none. The cursor is saved
/// after each read, but never past a fix still held back, so a restart publishes it.
public struct StorePositionCursor: PositionCursor {
    let output: Output
    let store: WaymarkStore
    /// Rings when fixes are committed; ends when the daemon shuts down.
    let wakes: AsyncStream<Void>
    let logger: Logger
    /// The last fix read, and the last saved.
    private var read: Int64
    private var saved: Int64
    /// The fixes held back by the thinning.
    private var held: Set<Int64> = []
    /// Woken by `wakes`, or when a held fix falls due.
    private let bells: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)
    private var forward: Task<Void, Never>?
    private var timer: Task<Void, Never>?

    public init(output: Output, store: WaymarkStore, wakes: AsyncStream<Void>, logger: Logger) {
        self.output = output
        self.store = store
        self.wakes = wakes
        self.logger = logger
        read = output.locationsThrough
        saved = read
        bells = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    public var isStopping: Bool { false }

    public mutating func next(due: Duration?) async throws -> [OutputFix]? {
        let batch = try await store.offPool { [read] in try $0.outputFixes(after: read, limit: 512) }
        if let last = batch.last {
            read = last.sequence
            return batch
        }
        if forward == nil {
            forward = Task { [wakes, ring = bells.continuation] in
                for await _ in wakes { ring.yield() }
                ring.finish()
            }
        }
        timer?.cancel()
        timer = due.map { wait in
            Task { [ring = bells.continuation] in
                do { try await Task.sleep(for: wait) } catch { return }
                ring.yield()
            }
        }
        var wake = bells.stream.makeAsyncIterator()
        guard await wake.next() != nil else { return nil }  // shutting down
        return []
    }

    public mutating func settle(_ fix: OutputFix) async throws { held.remove(fix.sequence) }

    public mutating func hold(_ fix: OutputFix) { held.insert(fix.sequence) }

    public mutating func checkpoint() async {
        let safe = held.min().map { min(read, $0 - 1) } ?? read
        guard safe > saved else { return }
        do {
            try await store.offPool { [name = output.name] in try $0.setOutputLocationCursor(name, through: safe) }
            saved = safe
        } catch {
            logger.error("Cannot save an output's progress", metadata: ["output": "\(output.name)", "error": "\(error)"])
        }
    }

    /// The held fixes are read again after a restart: the saved cursor is before them.
    public mutating func release() async {
        forward?.cancel()
        timer?.cancel()
    }
}
