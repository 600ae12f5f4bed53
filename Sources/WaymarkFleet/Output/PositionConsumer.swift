import Logging
import WaymarkCore
import WaymarkDelivery
import WaymarkNATS
import WaymarkOutputs

/// An owned output's positions (the OwnTracks and Home Assistant formats): every device's fixes
/// from the fix stream, through a durable consumer of the output's own, thinned as the single
/// daemon thins them (`LocationThinning`) and published. A fix waiting in the thinning stays
/// unacknowledged until it is published or a later fix of its device replaces it, so a node that
/// dies loses no device's last position: the next owner gets it again.
struct PositionConsumer: Sendable {
    let output: Output
    let jetStream: JetStream
    let delivery: OutputDelivery
    let settings: ConsumerNodeSettings
    let logger: Logger

    var consumer: String { FleetSubjects.positionConsumer(output: output.name) }

    /// Fixes waiting in the thinning are unacknowledged too: room for one per device.
    static let maxAckPending = 65_536

    /// Longer than a fix can wait in the thinning (its interval), so a waiting fix is not redelivered.
    var ackWait: Duration { max(.seconds(30), .seconds(3 * output.locationSeconds)) }

    private var pull: DurablePull {
        DurablePull(jetStream: jetStream, stream: FleetSubjects.fixStream, consumer: consumer, batch: settings.batch, fetchWait: settings.fetchWait)
    }

    func run(until stop: StopSignal) async {
        var waiting: [String: JetStreamMessage] = [:]
        await publish(until: stop, waiting: &waiting)
        // Stopping: the fixes still waiting go back at once, so the next owner need not wait the
        // ack wait out for them (a node that dies leaves them to the ack wait).
        for message in waiting.values { try? await message.nak() }
    }

    /// `waiting`: each device's fix held back by the thinning, unacknowledged.
    private func publish(until stop: StopSignal, waiting: inout [String: JetStreamMessage]) async {
        var thinning = LocationThinning(interval: Double(output.locationSeconds))
        var ready = false
        while !Task.isCancelled && !stop.isSet {
            do {
                if !ready {
                    try await jetStream.ensureConsumer(
                        stream: FleetSubjects.fixStream, durable: consumer, filterSubject: FleetSubjects.allFixes, ackWait: ackWait,
                        maxAckPending: Self.maxAckPending, startingAt: output.createdAt.date)
                    try await pull.awaitRedeliveries(ackWait: ackWait, logger: logger, metadata: ["output": "\(output.name)"])
                    ready = true
                }
                // A pull waits at most `fetchWait`: waiting fixes fall due on time to within it.
                for message in try await pull.next() {
                    // Reports share the fix stream (`FleetSubjects.report`); they are events, not positions.
                    guard !FleetSubjects.isReport(message.subject), let fix = position(of: message), output.filter.devices.isEmpty || output.filter.devices.contains(fix.device) else {
                        try await message.ack()
                        continue
                    }
                    let replaced = waiting.removeValue(forKey: fix.device)
                    if let now = thinning.offer(fix, now: MonotonicSeconds.now()) {
                        guard try await publish(now, message) else { return }
                    } else {
                        waiting[fix.device] = message
                    }
                    try await replaced?.ack()
                }
                for fix in thinning.due(now: MonotonicSeconds.now()) {
                    guard let message = waiting.removeValue(forKey: fix.device), try await publish(fix, message) else { return }
                }
            } catch is CancellationError {
                return
            } catch {
                if Task.isCancelled { return }
                logger.error("output positions interrupted", metadata: ["output": "\(output.name)", "error": "\(FleetDatabase.describe(error))"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Publishes `fix` and acknowledges its message; false when the output must stop. A
    /// position still failing after the keep time is passed over, as the single daemon does:
    /// the device's next one replaces it.
    private func publish(_ fix: OutputFix, _ message: JetStreamMessage) async throws -> Bool {
        switch await delivery.publish(fix) {
        case .delivered:
            break
        case .cancelled:
            return false
        case .gone(let reason), .gaveUp(let reason):
            logger.warning("output passed over a position", metadata: ["output": "\(output.name)", "error": "\(reason)"])
        }
        try await message.ack()
        return true
    }

    /// The fix a message carries as an output reads it, its stream sequence as its sequence; a
    /// message that is not a fix is logged, acknowledged and passed over.
    private func position(of message: JetStreamMessage) -> OutputFix? {
        do {
            let payload = try FixPayload.decode(message.payload)
            let fix = payload.fix
            return OutputFix(
                sequence: Int64(message.streamSequence), device: payload.device, time: Timestamp(nanosecondsSince1970: payload.t),
                coordinate: fix.coordinate, accuracy: fix.horizontalAccuracy, altitude: fix.altitude, speed: fix.speed, course: fix.course)
        } catch {
            logger.error("not a fix; passed over", metadata: ["output": "\(output.name)", "sequence": "\(message.streamSequence)"])
            return nil
        }
    }
}
