import WaymarkPipeline
import WaymarkStore

extension StoredEvent {
    /// The history row for an event the recording policy keeps (`LocationEvent.recording`).
    init(_ record: EventRecord) {
        self.init(
            time: record.time, kind: record.kind, region: record.region, transition: record.transition, coordinate: record.coordinate,
            record: record.record)
    }
}
