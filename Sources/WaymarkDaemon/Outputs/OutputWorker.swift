import Foundation
import Logging
import WaymarkCore
import WaymarkDelivery
import WaymarkOutputs
import WaymarkStore

/// Delivers one output's events (docs/outputs.md): reads the history's events after the
/// output's cursor, in order, 256 at a time, and sends those its filter wants — a device's one
/// after another, up to `lanes` devices at once — each retried with backoff until delivered,
/// dead-lettered after the output's keep time, or the receiver says 410; then moves the cursor
/// past the batch. The cursor is saved at most every 200 ms or 256 events, so a
/// killed daemon sends again, with the same CloudEvents ids, what it had not saved as sent.
struct OutputWorker: Sendable {
    let output: Output
    let store: WaymarkStore
    /// Sends one CloudEvent (its JSON) for the event; the output's kind decides how.
    let send: @Sendable (_ body: String, _ event: OutputEvent) async -> DeliveryOutcome
    /// The CloudEvents `source`.
    let source: String
    let activity: OutputActivity
    let logger: Logger

    private var retry: DeliveryRetry { DeliveryRetry(output: output.name, keep: .seconds(output.keepSeconds), activity: activity, logger: logger) }

    private enum Delivery { case done, stop }
    private enum Attempt { case delivered, gaveUp, stop }

    func run(wakes: AsyncStream<Void>) async {
        guard output.disabled == nil else { return }
        var progress = Progress(cursor: output.deliveredThrough)
        var wake = wakes.makeAsyncIterator()
        guard await retryRequeued() else { return }
        while !Task.isCancelled {
            let batch: [OutputEvent]
            do {
                batch = try await store.offPool { [cursor = progress.cursor] in try $0.outputEvents(after: cursor, limit: 256) }
            } catch {
                logger.error("Cannot read events for an output", metadata: ["output": "\(output.name)", "error": "\(error)"])
                do { try await Task.sleep(for: .seconds(1)) } catch { break }
                continue
            }
            if batch.isEmpty {
                await save(&progress, force: true)
                if let reset = await cursorPastNewestEvent(progress.cursor) {
                    progress.cursor = reset
                    continue
                }
                guard await wake.next() != nil else { break }  // woken by a commit, or shutting down
                continue
            }
            if await deliver(batch.filter(output.wants)) == .stop {
                await save(&progress, force: true)
                return
            }
            progress.cursor = batch.last!.sequence
            await save(&progress, force: false)
        }
        await save(&progress, force: true)
    }

    /// A batch, its devices spread over the lanes (`DeliveryLanes`); `.stop` when the output must stop (410, shutdown).
    private func deliver(_ events: [OutputEvent]) async -> Delivery {
        guard !events.isEmpty else { return .done }
        var byLane = [[OutputEvent]](repeating: [], count: DeliveryLanes.count)
        for event in events { byLane[DeliveryLanes.lane(of: event.device)].append(event) }
        return await withTaskGroup(of: Delivery.self) { group in
            for lane in byLane where !lane.isEmpty {
                group.addTask {
                    for event in lane where await deliver(event) == .stop { return .stop }
                    return Delivery.done
                }
            }
            var result = Delivery.done
            for await outcome in group where outcome == .stop {
                result = .stop
                group.cancelAll()
            }
            return result
        }
    }


    /// The cursor, and what of it is saved.
    private struct Progress {
        var cursor: Int64
        var saved: Int64
        var savedAt = ContinuousClock.now

        init(cursor: Int64) {
            self.cursor = cursor
            saved = cursor
        }
    }

    /// Saves the cursor when forced, or when 256 events or 200 ms have passed since the last save.
    private func save(_ progress: inout Progress, force: Bool) async {
        guard progress.cursor != progress.saved else { return }
        guard force || progress.cursor - progress.saved >= 256 || ContinuousClock.now - progress.savedAt >= .milliseconds(200) else { return }
        do {
            try await store.offPool { [name = output.name, cursor = progress.cursor] in try $0.setOutputCursor(name, deliveredThrough: cursor) }
            progress.saved = progress.cursor
            progress.savedAt = .now
        } catch {
            logger.error("Cannot save an output's progress", metadata: ["output": "\(output.name)", "error": "\(error)"])
        }
    }

    /// The dead letters `waymark outputs retry` re-queued, first, oldest first (their devices'
    /// order is the operator's choice to break); false when the output must stop.
    private func retryRequeued() async -> Bool {
        let events: [OutputEvent]
        do {
            events = try await store.offPool { [name = output.name] in try $0.requeuedEvents(output: name) }
        } catch {
            logger.error("Cannot read an output's re-queued events", metadata: ["output": "\(output.name)", "error": "\(error)"])
            return true
        }
        for event in events {
            switch await attempt(event) {
            case .stop: return false
            case .gaveUp: continue  // a dead letter again
            case .delivered:
                do {
                    try await store.offPool { [name = output.name] in
                        try $0.settleRequeued(event.sequence, output: name, delivered: true, at: .now)
                    }
                } catch {
                    logger.error("Cannot settle a dead letter", metadata: ["output": "\(output.name)", "error": "\(error)"])
                }
            }
        }
        return true
    }

    /// One event of a batch: delivered or given up on is done.
    private func deliver(_ event: OutputEvent) async -> Delivery {
        await attempt(event) == .stop ? .stop : .done
    }

    /// One event until delivered, dead-lettered, or the output stops (410, shutdown).
    private func attempt(_ event: OutputEvent) async -> Attempt {
        let body = CloudEvent.json(event, source: source)
        switch await retry.run({ await send(body, event) }) {
        case .delivered:
            return .delivered
        case .cancelled:
            return .stop
        case .gone(let reason):
            logger.warning("Output stopped by its receiver", metadata: ["output": "\(output.name)", "reason": "\(reason)"])
            try? await store.offPool { [output] in try $0.disableOutput(output.name, reason: reason) }
            return .stop
        case .gaveUp(let reason):
            logger.error(
                "Output gave up on an event", metadata: ["output": "\(output.name)", "sequence": "\(event.sequence)", "error": "\(reason)"])
            do {
                try await store.offPool { [output] in try $0.deadLetter(event.sequence, output: output.name, error: reason, at: .now) }
            } catch {
                logger.error("Cannot dead-letter an event", metadata: ["output": "\(output.name)", "error": "\(error)"])
                return .stop
            }
            activity.update(output.name) { $0.deadLettered += 1 }
            return .gaveUp
        }
    }

    /// Event ids are SQLite row ids: if history retention removed every event, new ones start
    /// again from 1, below the cursor. Then the cursor goes back to before them.
    private func cursorPastNewestEvent(_ cursor: Int64) async -> Int64? {
        guard let newest = try? await store.offPool({ try $0.newestEventID() }), newest < cursor else { return nil }
        logger.notice("Events were renumbered; output continues from the oldest", metadata: ["output": "\(output.name)"])
        return 0
    }
}
