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
    /// At most a batch unacknowledged, so redeliveries come first.
    var consumer: OutputStreamConsumer
    let database: FleetDatabase
    var inHand: [JetStreamMessage] = []
    /// Tells JetStream the batch in hand is still being worked on.
    var holding: Task<Void, any Error>?

    init(output: Output, jetStream: JetStream, database: FleetDatabase, settings: ConsumerNodeSettings, stop: StopSignal, logger: Logger) {
        consumer = OutputStreamConsumer(
            output: output, jetStream: jetStream, stream: FleetSubjects.eventStream, durable: FleetSubjects.consumer(output: output.name),
            filterSubject: FleetSubjects.allEvents, ackWait: settings.ackWait, maxAckPending: settings.batch, settings: settings, stop: stop,
            logger: logger)
        self.database = database
    }

    private var output: Output { consumer.output }

    var isStopping: Bool { consumer.stop.isSet }

    mutating func next() async throws -> [OutputEvent]? {
        holding?.cancel()
        let messages = try await consumer.next()
        inHand = messages
        guard !messages.isEmpty else { return [] }
        // Every third of the ack wait: a receiver retried for hours does not get its batch
        // redelivered meanwhile.
        holding = Task { [ackWait = consumer.ackWait] in
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
                consumer.logger.error(
                    "not an event; passed over",
                    metadata: ["output": "\(output.name)", "sequence": "\(message.streamSequence)", "error": "\(error)"])
                return nil
            }
        }
    }
}
