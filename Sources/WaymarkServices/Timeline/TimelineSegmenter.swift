import WaymarkCore

/// A device's fixes, in time order, into stays and trips (docs/timeline.md): the same for the
/// live `timeline` service, `waymark timeline` over the history and the import's evaluation, so
/// recomputing any range gives the same segments.
///
/// SKELETON: the implementation lands with the segmenter's own commit.
public struct TimelineSegmenter: Sendable {
    /// The visit rule the stays follow (defaults 100 m / 300 s, the visit detector's).
    public var radius: Double
    public var minimumDuration: Double
    public var silenceThreshold: Double

    public init(radius: Double = 100, minimumDuration: Double = 300, silenceThreshold: Double = SilenceRule.standard.threshold) {
        self.radius = radius
        self.minimumDuration = minimumDuration
        self.silenceThreshold = silenceThreshold
    }

    /// Segments that ended with this fix, in time order: a trip when a stay's arrival is known
    /// (the trip to it), a stay when the device left it.
    public mutating func process(_ fix: Fix) -> [TimelineSegment] { [] }

    /// What is still open at the end of the input: the trip under way, or the stay the device is
    /// in (its departure the last fix so far). Not reported as events; shown by `waymark timeline`.
    public var open: [TimelineSegment] { [] }
}
