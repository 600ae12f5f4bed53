import WaymarkCore

/// Where the exported track is split into segments, so a map never draws a straight line across
/// a stretch nobody recorded.
///
/// A new segment starts at a point when
/// 1. the input starts a new piece there (`TrackPoint.startsPiece`: a new `trk`, `trkseg` or
///    `rte` in a GPX file; a stored gap in the history), or
/// 2. the receiver was silent for more than `maximumSilence` seconds (default 300, the
///    significant-change interval of docs/semantics.md §2) **and** the device is more than
///    `stationaryDistance` metres (WGS84 geodesic; default 100, the visit radius) from the
///    previous point. A long silence without movement (a logger that records only when
///    moving) is a pause, not a gap: the line between the two points is where the device was.
///
/// Untimed points split only by rule 1: a planned route may have points kilometres apart.
public struct GapRule: Sendable, Equatable {
    /// Seconds without a fix after which the track may be split.
    public var maximumSilence: Double
    /// Metres the device must have moved across the silence for a split.
    public var stationaryDistance: Double

    public init(maximumSilence: Double = 300, stationaryDistance: Double = 100) {
        self.maximumSilence = maximumSilence
        self.stationaryDistance = stationaryDistance
    }
}

/// Applies a `GapRule` to points in order.
public struct TrackSegmenter: Sendable {
    public let rule: GapRule
    private var previous: Fix?

    public init(rule: GapRule = GapRule()) { self.rule = rule }

    /// Whether `point` starts a segment (the first point always does).
    public mutating func startsSegment(_ point: TrackPoint) -> Bool {
        defer { previous = point.fix }
        guard let previous else { return true }
        if point.startsPiece { return true }
        guard let before = previous.time, let now = point.fix.time,
            now.seconds(since: before) > rule.maximumSilence
        else { return false }
        return Geodesic.distance(previous.coordinate, point.fix.coordinate) > rule.stationaryDistance
    }
}
