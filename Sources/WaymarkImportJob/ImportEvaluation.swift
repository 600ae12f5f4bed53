import WaymarkCore
import WaymarkPipeline
import WaymarkStore

/// The second pass of an import: the fixes it added, in time order (the store's time index is
/// the sort, so a file of any size in any order is evaluated in bounded memory), through a
/// pipeline of their own — the device's regions, settings and subscriptions, but not its live
/// state, which the past never disturbs. What the recording rule keeps (`LocationEvent.recording`)
/// is stored with the import's id, as `waymark replay` of the same fixes would print it.
struct ImportEvaluation {
    let store: WaymarkStore
    let importID: Int64
    let device: String
    /// Quiet events are not delivered to outputs.
    let quiet: Bool
    let pageSize: Int

    /// Runs the pass from the first fix (an interrupted pass's events are cleared first), calling
    /// `progress` after every page with the fixes evaluated and events written so far.
    func run(pipeline: DevicePipeline, progress: (_ fixes: Int64, _ events: Int64) -> Void) throws {
        var pipeline = pipeline
        try store.clearImportEvaluation(importID)
        var position: (time: Timestamp, id: Int64)?
        var evaluated: Int64 = 0
        var written: Int64 = 0
        while true {
            let page = try store.importedFixes(importID: importID, after: position, limit: pageSize)
            guard let last = page.last, let lastTime = last.fix.time else { break }
            var events: [StoredEvent] = []
            for (_, fix) in page { Self.keep(pipeline.handle(.fix(fix)).events, into: &events) }
            try store.writeImportEvents(events, importID: importID, device: device, quiet: quiet)
            evaluated += Int64(page.count)
            written += Int64(events.count)
            progress(evaluated, written)
            position = (lastTime, last.id)
        }
        var last: [StoredEvent] = []
        Self.keep(pipeline.finish(), into: &last)
        try store.writeImportEvents(last, importID: importID, device: device, quiet: quiet)
        progress(evaluated, written + Int64(last.count))
    }

    private static func keep(_ events: [LocationEvent], into kept: inout [StoredEvent]) {
        for event in events {
            guard case .event(let record) = event.recording else { continue }
            kept.append(
                StoredEvent(
                    time: record.time, kind: record.kind, region: record.region, transition: record.transition, coordinate: record.coordinate,
                    record: record.record))
        }
    }
}
