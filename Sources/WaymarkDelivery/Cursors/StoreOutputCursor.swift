import Logging
import WaymarkCore
import WaymarkOutputs
import WaymarkStore

/// The single daemon's cursor over its history (docs/outputs.md): events after the output's
/// saved cursor, in order, 256 at a time, waiting for a commit (`wakes`) when there are none.
/// The cursor is saved as `CursorCheckpoint` says, so a killed daemon sends again, with the same
/// CloudEvents ids, what it had not saved as sent. Dead letters, re-queued ones and the
/// disabled state live in the store.
public struct StoreOutputCursor: OutputCursor {
    let output: Output
    let store: WaymarkStore
    /// Rings when events are committed; ends when the daemon shuts down.
    let wakes: AsyncStream<Void>
    /// Stamps dead letters and their settling.
    let clock: any WallClock
    let logger: Logger
    private var checkpoint: CursorCheckpoint<ContinuousClock.Instant>
    /// The last event of the batch in hand.
    private var inHand: Int64?

    public init(output: Output, store: WaymarkStore, wakes: AsyncStream<Void>, clock: any WallClock = SystemWallClock(), logger: Logger) {
        self.output = output
        self.store = store
        self.wakes = wakes
        self.clock = clock
        self.logger = logger
        checkpoint = CursorCheckpoint(cursor: output.deliveredThrough, at: .now)
    }

    public var isStopping: Bool { false }

    public func requeued() async throws -> [OutputEvent] {
        try await store.offPool { [name = output.name] in try $0.requeuedEvents(output: name) }
    }

    public func settleRequeued(_ event: OutputEvent) async throws {
        try await store.offPool { [name = output.name, now = clock.now] in
            try $0.settleRequeued(event.sequence, output: name, delivered: true, at: now)
        }
    }

    public mutating func next() async throws -> [OutputEvent]? {
        while true {
            let batch = try await store.offPool { [cursor = checkpoint.cursor] in try $0.outputEvents(after: cursor, limit: 256) }
            if let last = batch.last {
                inHand = last.sequence
                return batch
            }
            await save(force: true)
            if await eventsRenumbered() {
                checkpoint.move(to: 0)
                continue
            }
            var wake = wakes.makeAsyncIterator()
            guard await wake.next() != nil else { return nil }  // woken by a commit, or shutting down
        }
    }

    public mutating func commit() async throws {
        if let inHand { checkpoint.move(to: inHand) }
        inHand = nil
        await save(force: false)
    }

    /// The batch in hand is read again from the cursor, which has not moved past it.
    public mutating func release(redeliverAfter delay: Duration) async {
        inHand = nil
        await save(force: true)
    }

    public func deadLetter(_ event: OutputEvent, error: String) async throws {
        try await store.offPool { [name = output.name, now = clock.now] in try $0.deadLetter(event.sequence, output: name, error: error, at: now) }
    }

    public func disable(reason: String) async throws {
        try await store.offPool { [name = output.name] in try $0.disableOutput(name, reason: reason) }
    }

    private mutating func save(force: Bool) async {
        guard checkpoint.isDue(at: .now, force: force) else { return }
        do {
            try await store.offPool { [name = output.name, cursor = checkpoint.cursor] in try $0.setOutputCursor(name, deliveredThrough: cursor) }
            checkpoint.didSave(at: .now)
        } catch {
            logger.error("Cannot save an output's progress", metadata: ["output": "\(output.name)", "error": "\(error)"])
        }
    }

    /// Event ids are SQLite row ids: if history retention removed every event, new ones start
    /// again from 1, below the cursor. Then the cursor goes back to before them.
    private func eventsRenumbered() async -> Bool {
        guard let newest = try? await store.offPool({ try $0.newestEventID() }), newest < checkpoint.cursor else { return false }
        logger.notice("Events were renumbered; output continues from the oldest", metadata: ["output": "\(output.name)"])
        return true
    }
}
