import WaymarkCore

/// Figures of a track, as `waymark stats` prints them and the exports carry them.
///
/// Units: metres, seconds, metres per second. Figures that need times (`movingTime`,
/// speeds) or altitudes (`elevationGain`, …) are `nil` when the track has none. How each is
/// computed is documented on `TrackStatisticsAccumulator` and in docs/export.md.
public struct TrackStatistics: Sendable, Equatable {
    public var points = 0
    public var segments = 0
    /// Steps between consecutive points of a segment whose longitudes differ by more than 180°
    /// (see `AntimeridianCrossing`). Not printed: GeoJSON needs it before the points, to know
    /// the track will be cut into a MultiLineString there.
    public var antimeridianCrossings = 0
    /// Points with a time, and with an altitude.
    public var timedPoints = 0
    public var pointsWithAltitude = 0
    /// Sum of WGS84 geodesic distances between consecutive points of each segment.
    public var distance = 0.0
    public var startTime: Timestamp?
    public var endTime: Timestamp?
    /// Seconds from the first to the last timed point.
    public var elapsedTime: Double?
    /// Seconds spent moving (see `MotionAccumulator`).
    public var movingTime: Double?
    /// Metres climbed and descended, smoothed against GPS noise (see `ElevationGainCounter`).
    public var elevationGain: Double?
    public var elevationLoss: Double?
    /// Lowest and highest altitude as recorded (not smoothed).
    public var minimumElevation: Double?
    public var maximumElevation: Double?
    /// The highest speed over any stretch of at least 10 s (see `MotionAccumulator`).
    public var maximumSpeed: Double?
    /// Distance covered while moving over `movingTime`.
    public var averageMovingSpeed: Double?

    public init() {}
}
