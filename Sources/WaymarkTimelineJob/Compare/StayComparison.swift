import WaymarkCore
import WaymarkServices

/// How Waymark's stays agree with reported ones (`waymark timeline --compare`, docs/timeline/cli.md).
///
/// The matching rule. A Waymark stay and a reported stay *can* match when their time intervals
/// overlap (by more than zero seconds) and, when the reported stay has a position, their centres
/// are at most `maximumDistance` metres apart (default 250 m: the visit radius, 100 m, plus a
/// reported place's own spread, e.g. Google snapping a visit to a building's entrance). Of the
/// pairs that can match, the one overlapping longest is matched first, then the longest of the
/// remaining pairs whose two sides are both still unmatched, and so on (ties: the nearer
/// centres, then the earlier Waymark arrival), so each stay matches at most one reported stay
/// and the other way round. A stay split in two by the detector matches once; its other half
/// is unmatched.
///
/// Precision is the matched share of Waymark's stays, recall the matched share of the reported
/// ones, F1 their harmonic mean. The arrival and departure errors are the medians of the
/// absolute differences over the matched pairs; an open stay (the device is still there) has no
/// departure yet and counts for the arrival only.
public struct StayComparison: Sendable, Equatable {
    /// One matched pair. Differences are Waymark's time minus the reported one, seconds.
    public struct Match: Sendable, Equatable {
        public var stay: TimelineStay
        public var reported: ReportedStay
        /// Seconds the two intervals share.
        public var overlap: Double
        /// Metres between the centres; nil when the reported stay has no position.
        public var distance: Double?
        public var arrivalDifference: Double
        /// Nil for the open stay, which has not departed.
        public var departureDifference: Double?
    }

    public static let defaultMaximumDistance = 250.0

    public private(set) var matches: [Match] = []
    /// Waymark's stays no reported stay matched, in time order.
    public private(set) var unmatchedStays: [TimelineStay] = []
    /// Reported stays no Waymark stay matched, in time order.
    public private(set) var unmatchedReported: [ReportedStay] = []
    public let stayCount: Int
    public let reportedCount: Int

    /// - Parameters:
    ///   - stays: Waymark's stays, in time order.
    ///   - openStay: whether the last of `stays` is still open (its departure not yet known).
    public init(stays: [TimelineStay], reported: [ReportedStay], openStay: Bool = false, maximumDistance: Double = defaultMaximumDistance) {
        stayCount = stays.count
        reportedCount = reported.count
        var pairs: [(stay: Int, reported: Int, overlap: Double, distance: Double?)] = []
        for (s, stay) in stays.enumerated() {
            for (r, visit) in reported.enumerated() {
                let overlap = min(stay.departure, visit.departure).seconds(since: max(stay.arrival, visit.arrival))
                guard overlap > 0 else { continue }
                let distance = visit.centre.map { Geodesic.distance(stay.centre, $0) }
                if let distance, distance > maximumDistance { continue }
                pairs.append((s, r, overlap, distance))
            }
        }
        pairs.sort { a, b in
            if a.overlap != b.overlap { return a.overlap > b.overlap }
            if (a.distance ?? 0) != (b.distance ?? 0) { return (a.distance ?? 0) < (b.distance ?? 0) }
            return a.stay < b.stay
        }
        var stayTaken = Array(repeating: false, count: stays.count)
        var reportedTaken = Array(repeating: false, count: reported.count)
        for pair in pairs where !stayTaken[pair.stay] && !reportedTaken[pair.reported] {
            stayTaken[pair.stay] = true
            reportedTaken[pair.reported] = true
            let stay = stays[pair.stay]
            let visit = reported[pair.reported]
            let isOpen = openStay && pair.stay == stays.count - 1
            matches.append(
                Match(
                    stay: stay, reported: visit, overlap: pair.overlap, distance: pair.distance,
                    arrivalDifference: stay.arrival.seconds(since: visit.arrival),
                    departureDifference: isOpen ? nil : stay.departure.seconds(since: visit.departure)))
        }
        matches.sort { $0.stay.arrival < $1.stay.arrival }
        unmatchedStays = stays.indices.filter { !stayTaken[$0] }.map { stays[$0] }
        unmatchedReported = reported.indices.filter { !reportedTaken[$0] }.map { reported[$0] }
    }

    /// Matched share of Waymark's stays; nil when there are none.
    public var precision: Double? { stayCount == 0 ? nil : Double(matches.count) / Double(stayCount) }
    /// Matched share of the reported stays; nil when there are none.
    public var recall: Double? { reportedCount == 0 ? nil : Double(matches.count) / Double(reportedCount) }
    /// The harmonic mean of precision and recall; 0 when nothing matched, nil when either side is empty.
    public var f1: Double? {
        guard let precision, let recall else { return nil }
        return precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
    }

    /// Seconds: the median of |Waymark's arrival − the reported arrival| over the matches.
    public var medianArrivalError: Double? { Self.median(matches.map { abs($0.arrivalDifference) }) }
    /// Seconds: the median of |Waymark's departure − the reported departure| over the matches
    /// that have departed.
    public var medianDepartureError: Double? { Self.median(matches.compactMap { $0.departureDifference.map(abs) }) }

    /// The middle value (the mean of the two middle ones for an even count); nil for none.
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
