/// What `TravelModeRule` judges a trip by: robust statistics of its speed, measured by
/// `TripMeasurement` (docs/timeline.md, "Travel mode").
public struct SpeedProfile: Sendable, Equatable {
    /// Metres along the fixes, jitter removed.
    public var distance: Double
    /// Seconds from the trip's first fix to its last.
    public var duration: Double
    /// Seconds in motion: fix intervals no longer than the silence threshold whose window speed
    /// is at least `TripMeasurement.movingSpeed`.
    public var movingTime: Double
    /// Metres per second: the time-weighted median of the window speeds while moving (0 when
    /// the trip never moved between continuous fixes).
    public var medianSpeed: Double
    /// Metres per second: the time-weighted 95th percentile of the same speeds.
    public var highSpeed: Double
    /// Metres per second: the fastest straight-line speed across a silence that spans at least
    /// `TripMeasurement.gapEvidenceDistance` (a flight with the phone off); 0 when none.
    public var gapSpeed: Double
    /// Metres: the straight-line distance across that silence; 0 when none.
    public var gapDistance: Double

    public init(
        distance: Double, duration: Double, movingTime: Double, medianSpeed: Double, highSpeed: Double, gapSpeed: Double = 0,
        gapDistance: Double = 0
    ) {
        self.distance = distance
        self.duration = duration
        self.movingTime = movingTime
        self.medianSpeed = medianSpeed
        self.highSpeed = highSpeed
        self.gapSpeed = gapSpeed
        self.gapDistance = gapDistance
    }

    /// Metres per second: `distance` over `duration` (0 for an instant).
    public var averageSpeed: Double { duration > 0 ? distance / duration : 0 }
}
