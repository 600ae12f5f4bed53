import WaymarkCore

/// A device's fixes, in time order, into stays and trips (docs/timeline.md): the same for the
/// live `timeline` service, `waymark timeline` over the history and the import's evaluation, so
/// recomputing any range gives the same segments.
///
/// Fixes first pass the segmenter's own `ValidationGate` (by default `.other`'s, the gate a
/// subscription without settings has), so the offline timeline drops what a live subscription's
/// gate drops; a second gate with the same settings admits everything the first admitted, so a
/// live service behind its subscriber's gate may keep this one. The admitted fixes go through a
/// `VisitDetector` with the same radius, minimum duration and silence threshold: **the stays
/// are exactly its visits**, arrival and departure included. A trip is everything between two
/// stays: from the last fix of the stay left (or the first admitted fix of the input) to the
/// first fix of the stay reached, measured by `TripMeasurement` and judged by `TravelModeRule`.
///
/// A trip is emitted with the fix at which the detector reports the arrival at the next stay
/// (`minimumDuration` after that stay's first fix); a stay with the fix that leaves it. A trip
/// of a single fix (the input begins at a stay) is not a trip and is not emitted.
///
/// Memory: the current trip's fixes (`TripPoint`, about 50 bytes each) and, through the visit
/// detector, one coordinate per fix of the current stay.
public struct TimelineSegmenter: Sendable {
    /// The visit rule the stays follow (defaults 100 m / 300 s, the visit detector's).
    public let radius: Double
    public let minimumDuration: Double
    public let silenceThreshold: Double

    private var gate: ValidationGate
    private var detector: VisitDetector
    /// The current trip's fixes since the last stay's last fix; empty during a stay.
    private var tripPoints: [TripPoint] = []
    /// The stay the device is in, once its arrival is known.
    private var stay: OpenStay?

    /// - Parameter gate: a fresh gate with the settings of the subscription the timeline is
    ///   for (`ServiceSubscription.makeGate()`); by default `.other`'s speed bound and any accuracy.
    public init(
        radius: Double = 100, minimumDuration: Double = 300, silenceThreshold: Double = SilenceRule.standard.threshold,
        gate: ValidationGate = ValidationGate(activityType: .other)
    ) {
        self.radius = radius
        self.minimumDuration = minimumDuration
        self.silenceThreshold = silenceThreshold
        self.gate = gate
        detector = VisitDetector(radius: radius, minimumDuration: minimumDuration, silenceThreshold: silenceThreshold)
    }

    /// A segmenter in exactly the state a continuous one is in right after it left a stay whose
    /// last fix is `lastFixOfStay` (the stay's departure time and position): fed the fixes after
    /// that one, it emits what the continuous one emits after the stay. A fix the gate would not
    /// admit (no time, an invalid position) leaves it fresh.
    public init(
        resumingAfter lastFixOfStay: Fix, radius: Double = 100, minimumDuration: Double = 300,
        silenceThreshold: Double = SilenceRule.standard.threshold, gate: ValidationGate = ValidationGate(activityType: .other)
    ) {
        self.init(radius: radius, minimumDuration: minimumDuration, silenceThreshold: silenceThreshold, gate: gate)
        // The continuous segmenter's gate last admitted this fix; its detector started afresh
        // at the fix that left the stay, which a fresh detector does with the next fix.
        var resumed = gate
        guard resumed.admit(lastFixOfStay) == nil, let point = TripPoint(lastFixOfStay) else { return }
        self.gate = resumed.uncounted
        tripPoints = [point]
    }

    /// Fixes admitted by the gate so far.
    public var accepted: Int { gate.accepted }
    /// Fixes the gate dropped so far, by reason.
    public var dropped: [DropReason: Int] { gate.dropped }

    /// Segments that ended with this fix, in time order: a trip when a stay's arrival is known
    /// (the trip to it), a stay when the device left it.
    public mutating func process(_ fix: Fix) -> [TimelineSegment] {
        guard gate.admit(fix) == nil, let point = TripPoint(fix) else { return [] }
        let records = detector.process(fix)
        var segments: [TimelineSegment] = []
        if var current = stay {
            if let departure = records.first(where: { $0.visit?.event == .departure }), let visit = departure.visit {
                segments.append(
                    .stay(
                        TimelineStay(
                            arrival: current.arrival, departure: current.last.time, centre: departure.coordinate,
                            uncertainty: visit.uncertainty, fixCount: current.fixCount)))
                stay = nil
                tripPoints = [current.last, point]
            } else {
                current.fixCount += 1
                current.last = point
                stay = current
            }
        } else {
            tripPoints.append(point)
        }
        if stay == nil, let arrival = records.first(where: { $0.visit?.event == .arrival })?.visit?.arrivalTime {
            let reached = tripPoints.firstIndex { $0.time >= arrival } ?? tripPoints.count - 1
            if reached > 0 {
                segments.append(.trip(TripMeasurement.trip(through: Array(tripPoints[...reached]), silenceThreshold: silenceThreshold)))
            }
            stay = OpenStay(arrival: tripPoints[reached].time, fixCount: tripPoints.count - reached, last: point)
            tripPoints = []
        }
        return segments
    }

    /// What is still open at the end of the input: the trip under way, or the stay the device is
    /// in (its departure the last fix so far). Not reported as events; shown by `waymark timeline`.
    public var open: [TimelineSegment] {
        if let stay, let departure = detector.pendingDeparture, let visit = departure.visit {
            return [
                .stay(
                    TimelineStay(
                        arrival: stay.arrival, departure: stay.last.time, centre: departure.coordinate, uncertainty: visit.uncertainty,
                        fixCount: stay.fixCount))
            ]
        }
        guard tripPoints.count >= 2 else { return [] }
        return [.trip(TripMeasurement.trip(through: tripPoints, silenceThreshold: silenceThreshold))]
    }
}

/// The stay the device is in: its arrival (first fix), fixes so far and last fix.
private struct OpenStay: Sendable {
    var arrival: Timestamp
    var fixCount: Int
    var last: TripPoint
}
