import Logging
import WaymarkDelivery
import WaymarkNATS
import WaymarkOutputs

/// One owned output: its durable consumer of the events stream is its cursor. A batch of events
/// is delivered, each device's in order and up to `lanes` devices at once, each event until its
/// receiver takes it or the output's keep time passes (then a dead letter), and only then
/// acknowledged. A node that dies mid-batch leaves it unacknowledged: the next owner delivers it
/// again, with the same CloudEvents ids, before anything newer.
struct OutputConsumer: Sendable {
    let output: Output
    let jetStream: JetStream
    let database: FleetDatabase
    let delivery: OutputDelivery
    let settings: FleetOutputNode.Settings
    let logger: Logger

    var consumer: String { FleetSubjects.consumer(output: output.name) }

    private var pull: DurablePull {
        DurablePull(
            jetStream: jetStream, stream: FleetSubjects.eventStream, consumer: consumer, batch: settings.batch, fetchWait: settings.fetchWait)
    }

    private enum Outcome { case done, gone(String), cancelled }

    func run(until stop: StopSignal) async {
        var ready = false
        while !Task.isCancelled && !stop.isSet {
            var messages: [JetStreamMessage] = []
            do {
                if !ready {
                    // Created once, starting with the events of the moment the output was
                    // defined; at most a batch unacknowledged, so redeliveries come first.
                    try await jetStream.ensureConsumer(
                        stream: FleetSubjects.eventStream, durable: consumer, filterSubject: FleetSubjects.allEvents,
                        ackWait: settings.ackWait, maxAckPending: settings.batch, startingAt: output.createdAt.date)
                    try await pull.awaitRedeliveries(ackWait: settings.ackWait, logger: logger, metadata: ["output": "\(output.name)"])
                    ready = true
                }
                messages = try await pull.next()
                guard !messages.isEmpty else { continue }
                switch await deliverHoldingOn(messages) {
                case .done:
                    for message in messages { try await message.ack() }
                case .gone(let reason):
                    logger.warning("output stopped by its receiver", metadata: ["output": "\(output.name)", "reason": "\(reason)"])
                    try await database.disableOutput(output.name, reason: reason)
                    return
                case .cancelled:
                    // Stopping mid-batch: it goes back at once, for the next owner to deliver again.
                    for message in messages { try? await message.nak() }
                    return
                }
            } catch is CancellationError {
                return
            } catch {
                if Task.isCancelled { return }
                logger.error(
                    "output batch not acknowledged; redelivering",
                    metadata: ["output": "\(output.name)", "error": "\(FleetDatabase.describe(error))"])
                for message in messages { try? await message.nak(delay: .seconds(1)) }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Delivers `messages`, telling JetStream every third of the ack wait that they are still
    /// being worked on: a receiver retried for hours does not get its batch redelivered meanwhile.
    private func deliverHoldingOn(_ messages: [JetStreamMessage]) async -> Outcome {
        let holding = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: settings.ackWait / 3)
                for message in messages { try await message.inProgress() }
            }
        }
        let outcome = await deliver(events(of: messages))
        holding.cancel()
        return outcome
    }

    /// The events the output's filter wants; a message that is not an event is logged and passed
    /// over (redelivering it would not make it readable).
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
        }.filter(output.wants)
    }

    /// A batch, its devices spread over the lanes, each device's events one after another.
    private func deliver(_ events: [OutputEvent]) async -> Outcome {
        guard !events.isEmpty else { return .done }
        var byLane = [[OutputEvent]](repeating: [], count: DeliveryLanes.count)
        for event in events { byLane[DeliveryLanes.lane(of: event.device)].append(event) }
        return await withTaskGroup(of: Outcome.self) { group in
            for lane in byLane where !lane.isEmpty {
                group.addTask {
                    for event in lane {
                        let outcome = await deliver(event)
                        guard case .done = outcome else { return outcome }
                    }
                    return .done
                }
            }
            var result = Outcome.done
            for await outcome in group {
                guard case .done = result else { continue }
                if case .done = outcome { continue }
                result = outcome
                group.cancelAll()
            }
            return result
        }
    }

    private func deliver(_ event: OutputEvent) async -> Outcome {
        switch await delivery.deliver(event) {
        case .delivered:
            return .done
        case .gone(let reason):
            return .gone(reason)
        case .cancelled:
            return .cancelled
        case .gaveUp(let reason):
            logger.error(
                "output gave up on an event", metadata: ["output": "\(output.name)", "sequence": "\(event.sequence)", "error": "\(reason)"])
            do {
                try await database.deadLetter(event, output: output.name, error: reason)
            } catch {
                // Not kept anywhere: the batch stays unacknowledged and is tried again.
                logger.error("cannot keep a dead letter", metadata: ["output": "\(output.name)", "error": "\(FleetDatabase.describe(error))"])
                return .cancelled
            }
            return .done
        }
    }
}
