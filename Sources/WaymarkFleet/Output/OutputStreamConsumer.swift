import Logging
import WaymarkNATS
import WaymarkOutputs

/// An owned output's durable consumer of one stream (its events, or the fixes for its
/// positions), as its cursors pull from it: created on the first pull, starting with what was
/// published from the output's creation on; a new owner first waits for its predecessor's
/// unacknowledged messages (`DurablePull.awaitRedeliveries`), so they come before anything newer.
struct OutputStreamConsumer: Sendable {
    let output: Output
    let jetStream: JetStream
    let stream: String
    let durable: String
    let filterSubject: String
    let ackWait: Duration
    let maxAckPending: Int
    let settings: ConsumerNodeSettings
    /// Set when the node gives the output back.
    let stop: StopSignal
    let logger: Logger
    var ready = false

    private var pull: DurablePull {
        DurablePull(jetStream: jetStream, stream: stream, consumer: durable, batch: settings.batch, fetchWait: settings.fetchWait)
    }

    /// The next messages, up to a batch; none when nothing came within the fetch wait.
    mutating func next() async throws -> [JetStreamMessage] {
        if !ready {
            try await jetStream.ensureConsumer(
                stream: stream, durable: durable, filterSubject: filterSubject, ackWait: ackWait, maxAckPending: maxAckPending,
                startingAt: output.createdAt.date)
            try await pull.awaitRedeliveries(ackWait: ackWait, logger: logger, metadata: ["output": "\(output.name)"])
            ready = true
        }
        return try await pull.next()
    }
}
