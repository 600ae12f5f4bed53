import Logging
import WaymarkOutputs

/// Delivers one output's events from its cursor (docs/outputs.md, "Delivery"), for the single
/// daemon and a fleet's output nodes alike: re-queued dead letters first, then batch after
/// batch, each spread over lanes (`DeliveryBatch`), each event retried (`DeliveryRetry`) until
/// delivered, dead-lettered after the keep time, or the receiver says 410 (the output is
/// disabled); then the batch is committed. Stopping mid-batch releases it.
public struct DeliveryRunner<Cursor: OutputCursor>: Sendable {
    let output: Output
    let channel: OutputChannel
    /// The CloudEvents `source`.
    let source: String
    let activity: OutputActivity
    let logger: Logger

    public init(output: Output, channel: OutputChannel, source: String, activity: OutputActivity, logger: Logger) {
        self.output = output
        self.channel = channel
        self.source = source
        self.activity = activity
        self.logger = logger
    }

    private var retry: DeliveryRetry { DeliveryRetry(output: output.name, keep: .seconds(output.keepSeconds), activity: activity, logger: logger) }

    /// How one event's delivery ended.
    private enum EventEnd { case delivered, deadLettered, disable(String), stop }

    /// Runs until the output stops: shutting down, given back, disabled by its receiver, or a
    /// dead letter that could not be kept.
    public func run(_ cursor: Cursor) async {
        guard output.disabled == nil else { return }
        var cursor = cursor
        guard await deliverRequeued(cursor) else {
            await cursor.release(redeliverAfter: .zero)
            return
        }
        reading: while !Task.isCancelled && !cursor.isStopping {
            do {
                guard let events = try await cursor.next() else { break reading }
                // An empty batch is committed too: its messages may all be passed over.
                switch await deliver(events.filter(output.wants), cursor) {
                case .commit:
                    try await cursor.commit()
                case .disable(let reason):
                    await disable(reason, cursor)
                    break reading
                case .release:
                    break reading
                }
            } catch is CancellationError {
                break reading
            } catch {
                if Task.isCancelled { break reading }
                logger.error(
                    "Output batch interrupted; delivering it again", metadata: ["output": "\(output.name)", "error": "\(cursor.describe(error))"])
                await cursor.release(redeliverAfter: .seconds(1))
                do { try await Task.sleep(for: .seconds(1)) } catch { break reading }
            }
        }
        await cursor.release(redeliverAfter: .zero)
    }

    /// The re-queued dead letters, oldest first (their devices' order is the operator's choice
    /// to break); false when the output must stop.
    private func deliverRequeued(_ cursor: Cursor) async -> Bool {
        let events: [OutputEvent]
        do {
            events = try await cursor.requeued()
        } catch {
            logger.error("Cannot read an output's re-queued events", metadata: ["output": "\(output.name)", "error": "\(cursor.describe(error))"])
            return true
        }
        for event in events {
            switch await deliver(event, cursor) {
            case .deadLettered: continue  // a dead letter again
            case .stop: return false
            case .disable(let reason):
                await disable(reason, cursor)
                return false
            case .delivered:
                do {
                    try await cursor.settleRequeued(event)
                } catch {
                    logger.error("Cannot settle a dead letter", metadata: ["output": "\(output.name)", "error": "\(cursor.describe(error))"])
                }
            }
        }
        return true
    }

    /// A batch over its lanes, side by side; what becomes of it.
    private func deliver(_ events: [OutputEvent], _ cursor: Cursor) async -> DeliveryBatch.End {
        guard !events.isEmpty else { return .commit }
        return await withTaskGroup(of: DeliveryBatch.LaneEnd.self) { group in
            for lane in DeliveryBatch.lanes(events) {
                group.addTask {
                    for event in lane {
                        switch await deliver(event, cursor) {
                        case .delivered, .deadLettered: continue
                        case .disable(let reason): return .disable(reason)
                        case .stop: return .stop
                        }
                    }
                    return .finished
                }
            }
            var batch = DeliveryBatch()
            for await lane in group {
                if batch.laneEnded(lane) { group.cancelAll() }
            }
            return batch.end
        }
    }

    /// One event until delivered, dead-lettered, or the output stops.
    private func deliver(_ event: OutputEvent, _ cursor: Cursor) async -> EventEnd {
        let body = CloudEvent.json(event, source: source)
        switch await retry.run({ await channel.sendEvent(body, event) }) {
        case .delivered:
            return .delivered
        case .cancelled:
            return .stop
        case .gone(let reason):
            return .disable(reason)
        case .gaveUp(let reason):
            logger.error(
                "Output gave up on an event", metadata: ["output": "\(output.name)", "sequence": "\(event.sequence)", "error": "\(reason)"])
            do {
                try await cursor.deadLetter(event, error: reason)
            } catch {
                // Not kept anywhere: the batch is released, to be tried again.
                logger.error("Cannot keep a dead letter", metadata: ["output": "\(output.name)", "error": "\(cursor.describe(error))"])
                return .stop
            }
            activity.update(output.name) { $0.deadLettered += 1 }
            return .deadLettered
        }
    }

    private func disable(_ reason: String, _ cursor: Cursor) async {
        logger.warning("Output stopped by its receiver", metadata: ["output": "\(output.name)", "reason": "\(reason)"])
        do {
            try await cursor.disable(reason: reason)
        } catch {
            logger.error("Cannot disable an output", metadata: ["output": "\(output.name)", "error": "\(cursor.describe(error))"])
        }
    }
}
