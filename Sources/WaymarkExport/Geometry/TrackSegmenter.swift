import WaymarkCore

/// Where the exported track is split into segments, so a map never draws a straight line across
/// a stretch nobody recorded.
///
/// A new segment starts at a point when
/// 1. the input starts a new piece there (`TrackPoint.startsPiece`: a new `trk`, `trkseg` or
///    `rte` in a GPX file; a stored gap in the history), or
/// 2. the silence before it is a gap by `SilenceRule` (docs/semantics.md §2.6): more than 300 s
///    without a fix and more than 100 m from the previous point. A silence that ends within
///    100 m (a logger that records only when moving) is a stay, not a gap: the line between the
///    two points is where the device was.
///
/// Untimed points split only by rule 1: a planned route may have points kilometres apart.
public struct TrackSegmenter: Sendable {
    public let rule: SilenceRule
    private var previous: Fix?

    public init(rule: SilenceRule = .standard) { self.rule = rule }

    /// Whether `point` starts a segment (the first point always does).
    public mutating func startsSegment(_ point: TrackPoint) -> Bool {
        defer { previous = point.fix }
        guard let previous else { return true }
        if point.startsPiece { return true }
        if case .gap = rule.judge(from: previous, to: point.fix) { return true }
        return false
    }
}
