import WaymarkCore

/// Computes `TrackStatistics` from points in order, in constant memory.
///
/// - **distance**: Karney geodesics (PROJ) between consecutive points of a segment; nothing is
///   counted across a gap.
/// - **moving time, maximum speed**: `MotionAccumulator`; **average speed**: the distance
///   covered while moving over the moving time.
/// - **antimeridian crossings**: steps within a segment that `AntimeridianCrossing` cuts.
/// - **elevation gain and loss**: `ElevationGainCounter` over every point with an altitude,
///   continuing across gaps (a climb during a gap was still climbed).
public struct TrackStatisticsAccumulator: Sendable {
    public private(set) var statistics = TrackStatistics()
    private var motion = MotionAccumulator()
    private var elevation: ElevationGainCounter
    private var previous: Coordinate?
    /// Horizontal metres since the last point with an altitude, and since the last timed point.
    private var distanceSinceAltitude = 0.0
    private var distanceSinceTime = 0.0

    public init(elevation: ElevationGainCounter = ElevationGainCounter()) {
        self.elevation = elevation
    }

    public mutating func add(_ fix: Fix, startsSegment: Bool) {
        statistics.points += 1
        if startsSegment { statistics.segments += 1 }
        var step = 0.0
        if let previous, !startsSegment {
            step = Geodesic.distance(previous, fix.coordinate)
            statistics.distance += step
            if AntimeridianCrossing(from: previous, to: fix.coordinate) != nil { statistics.antimeridianCrossings += 1 }
        } else if let previous {
            step = Geodesic.sphericalDistance(previous, fix.coordinate)
        }
        previous = fix.coordinate
        distanceSinceAltitude += step
        distanceSinceTime = startsSegment ? 0 : distanceSinceTime + step
        if let time = fix.time {
            statistics.timedPoints += 1
            if statistics.startTime == nil { statistics.startTime = time }
            statistics.endTime = time
            motion.add(time: time, coordinate: fix.coordinate, step: distanceSinceTime, startsSegment: startsSegment)
            distanceSinceTime = 0
        }
        if let altitude = fix.altitude, altitude.isFinite {
            statistics.pointsWithAltitude += 1
            statistics.minimumElevation = min(statistics.minimumElevation ?? altitude, altitude)
            statistics.maximumElevation = max(statistics.maximumElevation ?? altitude, altitude)
            elevation.add(altitude: altitude, distance: distanceSinceAltitude)
            distanceSinceAltitude = 0
        }
    }

    /// The figures so far, with the derived ones filled in.
    public var result: TrackStatistics {
        var result = statistics
        if let start = result.startTime, let end = result.endTime, result.timedPoints > 1 {
            result.elapsedTime = end.seconds(since: start)
            result.movingTime = motion.movingTime
            result.maximumSpeed = motion.maximumSpeed
            if motion.movingTime > 0 { result.averageMovingSpeed = motion.movingDistance / motion.movingTime }
        }
        if result.pointsWithAltitude > 1 {
            result.elevationGain = elevation.gain
            result.elevationLoss = elevation.loss
        }
        return result
    }
}
