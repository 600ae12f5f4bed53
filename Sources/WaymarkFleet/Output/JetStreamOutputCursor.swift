import Logging
import WaymarkDelivery
import WaymarkNATS
import WaymarkOutputs

/// An owned output's cursor in a fleet: its durable consumer of the events stream. A batch is
/// acknowledged once delivered (`commit`); a node that stops mid-batch gives it back at once
/// (`release`), one that dies leaves it unacknowledged: either way the next owner delivers it
/// again, with the same CloudEvents ids, before anything newer. Dead letters and the disabled
/// state live in PostgreSQL.
struct JetStreamOutputCursor: OutputCursor {
    let output: Output
    let jetStream: JetStream
    let database: FleetDatabase
    let settings: ConsumerNodeSettings
    /// Set when the node gives the output back.
    let stop: StopSignal
    let logger: Logger
    var ready = false
    var inHand: [JetStreamMessage] = []
    /// Tells JetStream the batch in hand is still being worked on.
    var holding: Task<Void, any Error>?

    var consumer: String { FleetSubjects.consumer(output: output.name) }

    private var pull: DurablePull {
        DurablePull(
            jetStream: jetStream, stream: FleetSubjects.eventStream, consumer: consumer, batch: settings.batch, fetchWait: settings.fetchWait)
    }

    var isStopping: Bool { stop.isSet }

    mutating func next() async throws -> [OutputEvent]? {
        if !ready {
            // Created once, starting with the events of the moment the output was defined; at
            // most a batch unacknowledged, so redeliveries come first.
            try await jetStream.ensureConsumer(
                stream: FleetSubjects.eventStream, durable: consumer, filterSubject: FleetSubjects.allEvents,
                ackWait: settings.ackWait, maxAckPending: settings.batch, startingAt: output.createdAt.date)
            try await pull.awaitRedeliveries(ackWait: settings.ackWait, logger: logger, metadata: ["output": "\(output.name)"])
            ready = true
        }
        holding?.cancel()
        let messages = try await pull.next()
        inHand = messages
        guard !messages.isEmpty else { return [] }
        // Every third of the ack wait: a receiver retried for hours does not get its batch
        // redelivered meanwhile.
        holding = Task { [ackWait = settings.ackWait] in
            while !Task.isCancelled {
                try await Task.sleep(for: ackWait / 3)
                for message in messages { try await message.inProgress() }
            }
        }
        return events(of: messages)
    }

    mutating func commit() async throws {
        holding?.cancel()
        for message in inHand { try await message.ack() }
        inHand = []
    }

    mutating func release(redeliverAfter delay: Duration) async {
        holding?.cancel()
        for message in inHand { try? await message.nak(delay: delay == .zero ? nil : delay) }
        inHand = []
    }

    func deadLetter(_ event: OutputEvent, error: String) async throws {
        try await database.deadLetter(event, output: output.name, error: error)
    }

    func disable(reason: String) async throws {
        try await database.disableOutput(output.name, reason: reason)
    }

    func describe(_ error: any Error) -> String { FleetDatabase.describe(error) }

    /// The events the messages carry; a message that is not an event is logged and passed over
    /// (redelivering it would not make it readable).
    private func events(of messages: [JetStreamMessage]) -> [OutputEvent] {
        messages.compactMap { message in
            do {
                return try BusEvent.decode(subject: message.subject, payload: message.payload, sequence: message.streamSequence)
            } catch {
                logger.error(
                    "not an event; passed over",
                    metadata: ["output": "\(output.name)", "sequence": "\(message.streamSequence)", "error": "\(error)"])
                return nil
            }
        }
    }
}
