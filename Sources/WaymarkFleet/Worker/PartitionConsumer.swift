import Logging
import WaymarkCore
import WaymarkNATS

/// One owned partition: fetch a batch of its fixes, run them through their devices'
/// pipelines, write everything in one transaction, then acknowledge. Until cancelled (the
/// partition moves, or the worker stops); an unacknowledged batch is redelivered, to this
/// worker or the next owner, and what was already written is recognised by its sequence.
struct PartitionConsumer: Sendable {
    let partition: Int
    /// The fleet's partition count.
    let partitions: Int
    let jetStream: JetStream
    let database: FleetDatabase
    let regions: RegionsBoard
    let settings: FleetWorker.Settings
    let logger: Logger

    var consumer: String { FleetSubjects.consumer(partition: partition) }

    private var pull: DurablePull {
        DurablePull(
            jetStream: jetStream, stream: FleetSubjects.fixStream, consumer: consumer, batch: settings.batch, fetchWait: settings.fetchWait)
    }

    func run(until stop: StopSignal) async {
        var state: PartitionState?
        var ready = false
        // Events committed but perhaps not out: on taking the partition, and after a failed publish.
        var outboxDirty = true
        let outbox = EventOutbox(partition: partition, partitions: partitions, jetStream: jetStream, database: database)
        while !Task.isCancelled && !stop.isSet {
            var messages: [JetStreamMessage] = []
            do {
                if !ready {
                    // At most one batch unacknowledged: a redelivery comes before any later fix,
                    // so each device's fixes are applied in order even across a failover.
                    try await jetStream.ensureConsumer(
                        stream: FleetSubjects.fixStream, durable: consumer, filterSubject: FleetSubjects.fixes(partition: partition),
                        ackWait: settings.ackWait, maxAckPending: settings.batch)
                    try await pull.awaitRedeliveries(ackWait: settings.ackWait, logger: logger, metadata: ["partition": "\(partition)"])
                    ready = true
                }
                if outboxDirty {
                    try await outbox.publishLeftovers()
                    outboxDirty = false
                }
                let snapshot = await regions.current
                if state == nil {
                    state = PartitionState(monitors: snapshot.monitors, regionsVersion: snapshot.version)
                } else if state?.regionsVersion != snapshot.version {
                    state?.replaceRegions(snapshot.monitors, version: snapshot.version)
                }
                messages = try await pull.next()
                guard !messages.isEmpty, var current = state else { continue }
                let inputs = decode(messages)
                for device in current.unknownDevices(in: inputs) {
                    current.admit(device, from: try await database.resume(device: device))
                }
                let batch = current.apply(inputs)
                state = current
                try await database.write(batch)
                for message in messages { try await message.ack() }
                // Committed and acknowledged. Should publishing fail now, the events go out, in
                // order, before the next batch's (the `published` flag says which are out).
                do {
                    try await outbox.publish(batch.events)
                } catch {
                    outboxDirty = true
                    logger.error(
                        "events not published; publishing them before the next batch",
                        metadata: ["partition": "\(partition)", "error": "\(FleetDatabase.describe(error))"])
                    try await Task.sleep(for: .seconds(1))
                }
            } catch is CancellationError {
                break
            } catch {
                if Task.isCancelled { break }
                logger.error(
                    "partition batch not written; redelivering",
                    metadata: ["partition": "\(partition)", "error": "\(FleetDatabase.describe(error))"])
                // Pipelines may have run ahead of the database: resume them from it.
                state?.forgetDevices()
                for message in messages { try? await message.nak(delay: .seconds(1)) }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// The fixes, reports and beacon sightings of `messages` (a report's subject ends in `.r`, a
    /// sighting's in `.b`); a message that is none of them is logged and skipped (it is
    /// acknowledged with the batch: redelivering it would not make it readable).
    private func decode(_ messages: [JetStreamMessage]) -> [PartitionState.Input] {
        messages.compactMap { message in
            do {
                let payload: PartitionState.Input.Payload
                if FleetSubjects.isReport(message.subject) {
                    payload = .report(try ReportPayload.decode(message.payload))
                } else if FleetSubjects.isSighting(message.subject) {
                    let sighting = try SightingPayload.decode(message.payload)
                    payload = .sighting(device: sighting.device, try sighting.advertisement())
                } else {
                    payload = .fix(try FixPayload.decode(message.payload))
                }
                return PartitionState.Input(
                    sequence: message.streamSequence, payload: payload, queuedAt: Timestamp(nanosecondsSince1970: message.metadata.timestamp))
            } catch {
                logger.error(
                    "not a fix, a report or a sighting; skipped",
                    metadata: ["subject": "\(message.subject)", "sequence": "\(message.streamSequence)", "error": "\(error)"])
                return nil
            }
        }
    }
}
