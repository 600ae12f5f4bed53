import WaymarkCore

/// The `timeline` service (docs/timeline/events.md): the device's stays and the trips between
/// them as records of kind `stay` and `trip`, each once it has ended — a trip when the stay it
/// reached is known (the visit rule's minimum duration has passed there), a stay when the device
/// has left it. The segments are `TimelineSegmenter`'s, so the live service, `waymark replay`
/// and `waymark timeline` over the same fixes agree. What is still open (the trip under way, the
/// stay the device is at) is never reported, at the end of the input either.
///
/// Restart (`ServiceMark.timeline`): the mark is the first fix of the stay the device is at or
/// last left — the point from which a fresh segmenter, given the same fixes, reaches the same
/// state (a stay begins at a candidate's first fix, as the visit detector's does). Before any
/// stay it is the first fix the service saw. Resuming replays the stored fixes from it, so the
/// stay or trip owed at the restart comes once, live, with the values it would have had.
public struct TimelineService: LocationService, Sendable {
    public let thresholds: VisitThresholds
    public let silenceThreshold: Double
    /// A fresh gate with the subscription's settings, for the segmenter's own gate (which then
    /// admits everything the subscription's admitted).
    private let gate: ValidationGate
    private var segmenter: TimelineSegmenter
    private var start: ServiceMark?

    public init(
        thresholds: VisitThresholds = VisitThresholds(), silenceThreshold: Double = SilenceRule.standard.threshold,
        gate: ValidationGate = ValidationGate(activityType: .other)
    ) {
        self.thresholds = thresholds
        self.silenceThreshold = silenceThreshold
        self.gate = gate
        segmenter = TimelineSegmenter(
            radius: thresholds.radius, minimumDuration: thresholds.minimumDuration, silenceThreshold: silenceThreshold, gate: gate)
    }

    public mutating func process(_ fix: Fix) -> [LocationRecord] {
        guard let time = fix.time else { return [] }
        if start == nil { start = ServiceMark(kind: .timeline, time: time, coordinate: fix.coordinate) }
        let segments = segmenter.process(fix)
        for case .trip(let trip) in segments {
            start = ServiceMark(kind: .timeline, time: trip.end, coordinate: trip.to)
        }
        return segments.map(LocationRecord.init(segment:))
    }

    /// The open segment is not an event: nothing is reported at the end of the input.
    public mutating func finish() -> [LocationRecord] { [] }

    public var mark: ServiceMark? { start }

    /// Rebuilds the segmenter from the stored fixes since the saved mark; what the rebuilding
    /// reports was delivered before the restart and is dropped. When the fixes do not begin at
    /// the mark's time (retention removed them), the service starts fresh rather than report a
    /// segment cut short.
    public mutating func resume(from marks: [ServiceMark], replaying fixes: [Fix]) {
        guard let saved = marks[.timeline] else { return }
        let since = fixes.drop { ($0.time ?? saved.time) < saved.time }
        guard since.first?.time == saved.time else { return }
        var rebuilt = TimelineService(thresholds: thresholds, silenceThreshold: silenceThreshold, gate: gate)
        for fix in since { _ = rebuilt.process(fix) }
        self = rebuilt
    }
}
