import WaymarkCore

/// Moving time and maximum speed from timed points, robust to GPS jitter.
///
/// Both look back from each point to the latest earlier point of the same segment at least a
/// window ago and use the straight displacement between them (spherical distance; 0.5 % is
/// irrelevant to a threshold), so a receiver's jitter while standing still (about 0.5–1 m per
/// second with 3 m of correlated noise) does not read as movement:
/// - **moving time**: the interval from the previous point counts as moving when the
///   displacement over the last `movingWindow` seconds (30) is at least `movingSpeed`
///   (0.3 m/s, about 1 km/h, gpxpy's stopped-speed threshold) times that span. Intervals at
///   the start of a segment, before a window has passed, use the span so far.
/// - **maximum speed**: the highest displacement over elapsed time across any span of at least
///   `speedWindow` seconds (10), so a single noisy fix cannot make a spike.
///
/// A point reached from the previous one faster than `plausibleSpeed` (60 m/s, the
/// validation gate's bound for an unknown activity) is a glitch: it is left out here (not from
/// the distance), so one stray fix cannot set the maximum speed.
///
/// Memory: the points of the last `movingWindow` seconds (at most `capacity`).
public struct MotionAccumulator: Sendable {
    public var movingWindow = 30.0
    public var movingSpeed = 0.3
    public var speedWindow = 10.0
    public var plausibleSpeed = 60.0
    public static let capacity = 4096

    public private(set) var movingTime = 0.0
    /// Metres covered during the moving intervals (geodesic), for the average moving speed.
    public private(set) var movingDistance = 0.0
    public private(set) var maximumSpeed: Double?
    private var recent: [(time: Timestamp, coordinate: Coordinate)] = []
    private var head = 0

    public init() {}

    /// The next timed point, `step` metres from the previous point; `startsSegment` forgets
    /// what came before.
    public mutating func add(time: Timestamp, coordinate: Coordinate, step: Double, startsSegment: Bool) {
        if startsSegment {
            recent.removeAll(keepingCapacity: true)
            head = 0
        }
        if let last = recent.last, time > last.time {
            let interval = time.seconds(since: last.time)
            guard Geodesic.sphericalDistance(last.coordinate, coordinate) <= plausibleSpeed * interval else { return }
            if let span = look(back: movingWindow, from: time, to: coordinate),
                span.distance >= movingSpeed * span.seconds
            {
                movingTime += interval
                movingDistance += step
            }
            if let span = look(back: speedWindow, from: time, to: coordinate), span.seconds >= speedWindow {
                let speed = span.distance / span.seconds
                maximumSpeed = max(maximumSpeed ?? 0, speed)
            }
        } else if let last = recent.last, time <= last.time {
            return  // time going backwards or repeated: no interval to measure
        }
        recent.append((time, coordinate))
        // Drop what is older than the moving window (keeping one point beyond it).
        while head + 1 < recent.count, time.seconds(since: recent[head + 1].time) >= movingWindow { head += 1 }
        if head > Self.capacity || recent.count - head > Self.capacity {
            if recent.count - head > Self.capacity { head = recent.count - Self.capacity }
            recent.removeFirst(head)
            head = 0
        }
    }

    /// The span from the latest kept point at least `window` seconds before `time` (or the
    /// oldest kept point) to `coordinate`.
    private func look(back window: Double, from time: Timestamp, to coordinate: Coordinate)
        -> (distance: Double, seconds: Double)?
    {
        guard head < recent.count else { return nil }
        var index = recent.count - 1
        while index > head, time.seconds(since: recent[index].time) < window { index -= 1 }
        let start = recent[index]
        let seconds = time.seconds(since: start.time)
        guard seconds > 0 else { return nil }
        return (Geodesic.sphericalDistance(start.coordinate, coordinate), seconds)
    }
}
