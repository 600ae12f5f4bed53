import WaymarkBeacons
import WaymarkCore
import WaymarkGeoJSON
import WaymarkPipeline
import WaymarkRegions
import WaymarkStore

extension WaymarkStore {
    /// How far before the window the region's latest transition is looked for (it gives the
    /// restored state its side and start).
    static let previousTransitionLookBack = 86_400.0

    /// Explains the stored event `id` (docs/explain.md): a region event by recomputing it with the
    /// daemon's pipeline from the device's stored fixes, a beacon event from its record. Nil when
    /// there is no such event.
    ///
    /// Reads the event by id, the region's earlier events in the day before the window and the
    /// device's fixes in the window (each a range scan of a time index), and the regions.
    ///
    /// - Parameter settings: the pipeline settings the daemon runs with
    ///   (`DaemonConfiguration.pipeline`: `regions.crossing_gap`, `regions.activity`).
    /// - Throws: `ExplainError` for an event that is no transition or whose record is unreadable;
    ///   `StoreError` for SQLite failures.
    public func explainEvent(id: Int64, settings: PipelineSettings) throws -> EventExplanation? {
        guard let stored = try event(id: id) else { return nil }
        let (subject, crossed) = try Self.subject(stored)
        let regions = try regions()
        if subject.kind == .beacon {
            return EventExplainer.explainBeacon(subject, region: regions.first { $0.identifier == subject.region && !$0.isGeographic })
        }
        guard let region = regions.first(where: { $0.identifier == subject.region && $0.isGeographic }) else {
            var explanation = EventExplanation(event: subject, reproduced: false)
            explanation.mismatch = "no region \"\(subject.region)\" is stored now: the event cannot be recomputed"
            return explanation
        }
        // The region's state when the window begins: its latest enter or exit confirmed by
        // then, and whether that stay had its dwell.
        let window = EventExplainer.window(for: subject, configuration: settings.regions)
        let earlier = try regionEvents(
            device: subject.device, region: subject.region, from: window.from.adding(seconds: -Self.previousTransitionLookBack),
            to: subject.time, limit: 64
        ).filter { $0.kind == .region }.map(Self.subject)
        let confirmed = earlier.filter { ($0.0.confirmedAt ?? $0.0.time) <= window.from }
        let latest = confirmed.first { $0.0.transition != .dwell }
        let dwelled = latest.map { latest in confirmed.contains { $0.0.transition == .dwell && $0.0.time >= latest.0.time } } ?? false
        let monitors = RegionMonitors(regions, settings: settings)
        let fixes = try fixes(device: subject.device, from: window.from, to: window.to)
        // Without one, the side the window's first transition (this event, or one before it
        // confirmed inside the window) started from.
        let first = earlier.last { ($0.0.confirmedAt ?? $0.0.time) > window.from && $0.0.transition != .dwell } ?? (subject, crossed)
        let before = EventExplainer.state(
            of: first.0, crossed: first.1,
            latest: latest.map { EventExplainer.Earlier(kind: $0.0.transition, time: $0.0.time, crossed: $0.crossed) }, dwelled: dwelled)
        // What the phone reported of the region in the window: evidence the daemon took.
        let reported = try regionEvents(device: subject.device, region: subject.region, from: window.from, to: window.to, limit: 256)
            .filter { $0.kind == .reportedRegion }
            .map { EventRecord(time: $0.time, kind: $0.kind, region: $0.region, transition: $0.transition, coordinate: $0.coordinate, record: $0.record) }
        return EventExplainer.explain(
            subject, monitors: monitors, options: region.options, before: before, fixes: fixes, window: window, reported: reported)
    }

    /// The event as the explainer takes it, and whether its record says `crossed`.
    static func subject(_ stored: StoredEvent) throws(ExplainError) -> (EventExplanation.Subject, crossed: Bool) {
        let id = stored.id ?? 0
        guard stored.kind == .region || stored.kind == .beacon, let region = stored.region, let transition = stored.transition else {
            throw ExplainError(
                .notExplainable,
                "event \(id) is a \(stored.kind.rawValue) record, not a region or beacon transition: only those are decided by rules to explain")
        }
        guard let record = try? JSONParser.parse(Array(stored.record.utf8)) else {
            throw ExplainError(.unreadableRecord, "event \(id): the stored record is not JSON: \(stored.record.prefix(120))")
        }
        func time(_ key: String) throws(ExplainError) -> Timestamp? {
            guard let node = record.member(key), !node.isNull else { return nil }
            guard case .string(let text) = node.value, let time = Timestamp(rfc3339: text) else {
                throw ExplainError(.unreadableRecord, "event \(id): the record's \(key) is not an RFC 3339 time")
            }
            return time
        }
        var crossed = false
        if case .bool(true)? = record.member("crossed")?.value { crossed = true }
        let subject = EventExplanation.Subject(
            id: id, device: stored.device, kind: stored.kind, region: region, transition: transition, time: stored.time,
            confirmedAt: try time("confirmedAt"), lastSeen: try time("lastSeen"), record: stored.record)
        return (subject, crossed)
    }
}
