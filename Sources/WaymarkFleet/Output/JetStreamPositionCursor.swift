import Logging
import WaymarkCore
import WaymarkDelivery
import WaymarkNATS
import WaymarkOutputs

/// An owned output's cursor over positions (the OwnTracks and Home Assistant formats): every
/// device's fixes from the fix stream, through a durable consumer of the output's own. A fix is
/// acknowledged once settled; one held back by the thinning stays unacknowledged until it is
/// published or a later fix of its device replaces it, so a node that dies loses no device's
/// last position: the next owner gets it again.
struct JetStreamPositionCursor: PositionCursor {
    var consumer: OutputStreamConsumer
    /// The messages of the fixes read and not settled, by stream sequence.
    var unsettled: [Int64: JetStreamMessage] = [:]

    init(output: Output, jetStream: JetStream, settings: ConsumerNodeSettings, stop: StopSignal, logger: Logger) {
        consumer = OutputStreamConsumer(
            output: output, jetStream: jetStream, stream: FleetSubjects.fixStream, durable: FleetSubjects.positionConsumer(output: output.name),
            filterSubject: FleetSubjects.allFixes, ackWait: Self.ackWait(output), maxAckPending: Self.maxAckPending, settings: settings,
            stop: stop, logger: logger)
    }

    /// Fixes held back by the thinning are unacknowledged too: room for one per device.
    static let maxAckPending = 65_536

    /// Longer than a fix can wait in the thinning (its interval), so a held fix is not redelivered.
    static func ackWait(_ output: Output) -> Duration { max(.seconds(30), .seconds(3 * output.locationSeconds)) }

    var isStopping: Bool { consumer.stop.isSet }

    /// A pull waits at most `fetchWait`: held fixes fall due on time to within it (`due` is not needed).
    mutating func next(due: Duration?) async throws -> [OutputFix]? {
        var fixes: [OutputFix] = []
        for message in try await consumer.next() {
            // Reports share the fix stream (`FleetSubjects.report`); they are events, not positions.
            guard !FleetSubjects.isReport(message.subject), let fix = position(of: message) else {
                try await message.ack()
                continue
            }
            unsettled[fix.sequence] = message
            fixes.append(fix)
        }
        return fixes
    }

    mutating func settle(_ fix: OutputFix) async throws {
        try await unsettled.removeValue(forKey: fix.sequence)?.ack()
    }

    func hold(_ fix: OutputFix) {}

    func checkpoint() async {}

    /// The fixes still held go back at once, so the next owner need not wait the ack wait out
    /// for them (a node that dies leaves them to the ack wait).
    mutating func release() async {
        for message in unsettled.values { try? await message.nak() }
        unsettled = [:]
    }

    func describe(_ error: any Error) -> String { FleetDatabase.describe(error) }

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
            consumer.logger.error(
                "not a fix; passed over", metadata: ["output": "\(consumer.output.name)", "sequence": "\(message.streamSequence)"])
            return nil
        }
    }
}
