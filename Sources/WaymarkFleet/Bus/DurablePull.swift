import Logging
import WaymarkNATS

/// How a partition's or an output's durable consumer pulls (`PartitionConsumer`,
/// `JetStreamOutputCursor`): at most a batch unacknowledged, and a new owner's first pull only after
/// its predecessor's unacknowledged messages can come back.
struct DurablePull: Sendable {
    let jetStream: JetStream
    let stream: String
    let consumer: String
    let batch: Int
    /// How long a pull waits for the next message when none is waiting.
    let fetchWait: Duration

    /// What is waiting, up to a batch, at once; when nothing is, the next message as soon as it
    /// comes (a pull of one, up to `fetchWait`) and whatever followed it. A pull for a whole
    /// batch would wait for the batch to fill: latency of the fill time at low rates.
    func next() async throws -> [JetStreamMessage] {
        let waiting = try await jetStream.fetchAvailable(stream: stream, consumer: consumer, batch: batch)
        guard waiting.isEmpty else { return waiting }
        let first = try await jetStream.fetch(stream: stream, consumer: consumer, batch: 1, expires: fetchWait)
        guard !first.isEmpty, batch > 1 else { return first }
        return first + (try await jetStream.fetchAvailable(stream: stream, consumer: consumer, batch: batch - 1))
    }

    /// A consumer taken over may have messages delivered to its last owner and not
    /// acknowledged (a batch in hand, a fetch it left waiting). They come back only after the
    /// ack wait, and a fetch before then would get newer ones first: a device's order would
    /// break. So a new owner that finds some waits the ack wait out; redeliveries then come
    /// before anything newer (docs/fleet.md, "Partitions and order").
    func awaitRedeliveries(ackWait: Duration, logger: Logger, metadata: Logger.Metadata) async throws {
        let info = try await jetStream.consumerInfo(stream: stream, durable: consumer)
        guard info.numAckPending > 0 else { return }
        var metadata = metadata
        metadata["unacknowledged"] = "\(info.numAckPending)"
        metadata["wait"] = "\(ackWait)"
        logger.notice("waiting for the last owner's unacknowledged messages", metadata: metadata)
        try await Task.sleep(for: ackWait + .milliseconds(200))
    }
}
