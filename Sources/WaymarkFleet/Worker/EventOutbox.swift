import WaymarkNATS

/// Publishes a partition's committed events to the bus, in order, each once: after each
/// batch's commit, and, before anything else, whatever the partition's last owner committed
/// and did not get out (the `published` flag). The event's id is the message id, so a publish
/// repeated within JetStream's duplicate window is stored once.
struct EventOutbox: Sendable {
    let partition: Int
    let partitions: Int
    let jetStream: JetStream
    let database: FleetDatabase

    func publish(_ events: [FleetBatch.StoredEvent]) async throws {
        guard !events.isEmpty else { return }
        _ = try await jetStream.publish(
            events.map { (payload: Array($0.record.utf8), subject: FleetSubjects.event(device: $0.device), messageID: $0.id) })
        try await database.markPublished(events)
    }

    /// What this partition's devices committed and nobody published.
    func publishLeftovers() async throws {
        let partition = self.partition
        let partitions = self.partitions
        let events = try await database.unpublishedEvents { FleetSubjects.partition(of: $0, among: partitions) == partition }
        for start in stride(from: 0, to: events.count, by: 256) {
            try await publish(Array(events[start..<min(start + 256, events.count)]))
        }
    }
}
