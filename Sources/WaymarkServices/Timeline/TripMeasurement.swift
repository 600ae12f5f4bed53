import WaymarkCore

/// How a trip's figures are measured from its fixes (docs/timeline.md, "Stays and trips"). The
/// constants are the rule's; the measurement is pure and depends only on the trip's own fixes,
/// so a trip measures the same whether the segmenter ran from the start or resumed.
///
/// 1. **Spikes out.** An interior fix that lies more than twice `max(spikeFloor, d)` from both
///    its continuous neighbours, where `d` is the distance between those neighbours, is an
///    out-and-back outlier (a reflection) and is left out of every figure. A fix with a
///    silence on one side is judged by the other: it is a spike when its jump to the next
///    (previous) fix is more than twice `max(spikeFloor, what the pace of the two fixes after
///    (before) it covers in that time)` — an outlier just after a silence passes the gate
///    (the silence makes any jump plausible) and then makes the gate drop the good fixes
///    until the speed from it falls to the bound. The first and last fix always stay.
/// 2. **Distance without jitter.** Distance is summed from an anchor: the next fix counts only
///    once it is at least `max(minimumStep, its horizontalAccuracy capped at maximumStep)`
///    metres from the anchor, and then becomes the anchor; the trip's last fix always closes
///    the sum. A device standing still adds (almost) nothing; a walk is measured in steps of a
///    few metres. Geodesic (WGS84).
/// 3. **Window speeds.** Each interval between continuous fixes (at most the silence threshold
///    apart) gets the straight-line speed over a window around it at least `window` seconds
///    long that does not cross a silence (shorter when the continuous run is shorter). Jitter
///    of a few metres over 20 s is a fraction of a metre per second.
/// 4. **Moving time** sums the intervals whose window speed is at least `movingSpeed`; the
///    median and 95th percentile of those speeds, weighted by time, make the speed profile.
/// 5. **Max speed** is the highest window speed, or the straight-line speed across a silence if
///    higher (a lower bound of the speed actually reached).
/// 6. **Elevation gain** is the export's statistics' rule (`ElevationGainCounter`): altitudes
///    smoothed over the distance travelled, then climbs counted between turning points that
///    differ by at least `elevationHysteresis`; nil when fewer than two fixes have an altitude.
public enum TripMeasurement {
    /// Metres: the least step the distance counts (consumer GPS wanders by a few metres at rest).
    public static let minimumStep = 5.0
    /// Metres: the largest stated accuracy used as the step (a 200 m Wi-Fi fix would hide a walk).
    public static let maximumStep = 30.0
    /// Metres: the least out-and-back distance a spike is judged against.
    public static let spikeFloor = 25.0
    /// Seconds: the least span of a window speed.
    public static let window = 20.0
    /// Metres per second at or above which an interval is in motion (a slow stroll is 0.8).
    public static let movingSpeed = 0.5
    /// Metres: the least straight-line distance across a silence that counts as speed evidence.
    public static let gapEvidenceDistance = 1_000.0
    /// Metres of altitude change before a climb counts (altitude noise is a few metres).
    public static let elevationHysteresis = 5.0

    /// The trip through `points` (time order, at least two), its mode judged by `TravelModeRule`.
    static func trip(through points: [TripPoint], silenceThreshold: Double) -> TimelineTrip {
        let first = points[0]
        let last = points[points.count - 1]
        let kept = withoutSpikes(points, silenceThreshold: silenceThreshold)
        let (profile, maxSpeed) = profile(of: kept, silenceThreshold: silenceThreshold)
        return TimelineTrip(
            start: first.time, end: last.time, from: first.coordinate, to: last.coordinate, distance: profile.distance,
            movingTime: profile.movingTime, maxSpeed: maxSpeed, averageSpeed: profile.averageSpeed,
            elevationGain: elevationGain(along: kept), mode: TravelModeRule.judge(profile), fixCount: points.count)
    }

    /// The speed profile and the max speed of a trip's fixes, spikes already out.
    static func profile(of kept: [TripPoint], silenceThreshold: Double) -> (SpeedProfile, maxSpeed: Double) {
        let speeds = Speeds(kept, silenceThreshold: silenceThreshold)
        let duration = kept[kept.count - 1].time.seconds(since: kept[0].time)
        let profile = SpeedProfile(
            distance: distance(along: kept), duration: duration, movingTime: speeds.movingTime,
            medianSpeed: speeds.movingPercentile(0.5), highSpeed: speeds.movingPercentile(0.95), gapSpeed: speeds.gapSpeed,
            gapDistance: speeds.gapDistance)
        return (profile, speeds.maxSpeed)
    }

    /// `points` without spikes (rule 1).
    static func withoutSpikes(_ points: [TripPoint], silenceThreshold: Double) -> [TripPoint] {
        guard points.count >= 3 else { return points }
        func seconds(_ from: Int, _ to: Int) -> Double { points[to].time.seconds(since: points[from].time) }
        func metres(_ from: Int, _ to: Int) -> Double { Geodesic.sphericalDistance(points[from].coordinate, points[to].coordinate) }
        func continuous(_ from: Int) -> Bool { from >= 0 && from + 1 < points.count && seconds(from, from + 1) <= silenceThreshold }
        /// Whether the jump between `index` and its neighbour `near` is more than twice what the
        /// pace between `near` and `far` (its continuous neighbour on the same side) covers.
        func outOfPace(_ index: Int, _ near: Int, _ far: Int) -> Bool {
            let pace = metres(near, far) / abs(seconds(near, far))
            return metres(index, near) > 2 * max(spikeFloor, pace * abs(seconds(index, near)))
        }
        var kept = [points[0]]
        kept.reserveCapacity(points.count)
        for index in 1..<(points.count - 1) {
            let spike: Bool
            switch (continuous(index - 1), continuous(index)) {
            case (true, true):
                let across = max(spikeFloor, metres(index - 1, index + 1))
                spike = min(metres(index - 1, index), metres(index, index + 1)) > 2 * across
            case (false, true):
                spike = continuous(index + 1) && outOfPace(index, index + 1, index + 2)
            case (true, false):
                spike = continuous(index - 2) && outOfPace(index, index - 1, index - 2)
            case (false, false):
                spike = false
            }
            if !spike { kept.append(points[index]) }
        }
        kept.append(points[points.count - 1])
        return kept
    }

    /// Metres along `points` from anchor to anchor (rule 2).
    static func distance(along points: [TripPoint]) -> Double {
        guard var anchor = points.first else { return 0 }
        var total = 0.0
        for point in points.dropFirst() {
            let step = max(minimumStep, min(point.horizontalAccuracy ?? 0, maximumStep))
            // The spherical estimate is within 0.56 % of the geodesic: well short of the step,
            // the fix cannot count, and the costlier geodesic is not needed.
            guard Geodesic.sphericalDistance(anchor.coordinate, point.coordinate) >= 0.99 * step else { continue }
            let moved = Geodesic.distance(anchor.coordinate, point.coordinate)
            if moved >= step {
                total += moved
                anchor = point
            }
        }
        if let last = points.last, anchor.time != last.time { total += Geodesic.distance(anchor.coordinate, last.coordinate) }
        return total
    }

    /// Metres climbed along `points` (rule 6): the export's own rule (`ElevationGainCounter`:
    /// smoothed over distance, then a hysteresis), so a trip and `waymark stats` agree.
    static func elevationGain(along points: [TripPoint]) -> Double? {
        var counter = ElevationGainCounter(threshold: elevationHysteresis)
        var counted = 0
        var previous: TripPoint?
        for point in points {
            guard let altitude = point.altitude else { continue }
            counter.add(altitude: altitude, distance: previous.map { Geodesic.distance($0.coordinate, point.coordinate) } ?? 0)
            previous = point
            counted += 1
        }
        return counted >= 2 ? counter.gain : nil
    }
}

/// The window speeds of a trip's intervals (rules 3–5).
private struct Speeds {
    /// Moving intervals' window speeds and durations, sorted by speed.
    private var moving: [(speed: Double, seconds: Double)] = []
    private(set) var movingTime = 0.0
    private(set) var maxSpeed = 0.0
    private(set) var gapSpeed = 0.0
    private(set) var gapDistance = 0.0

    init(_ points: [TripPoint], silenceThreshold: Double) {
        guard points.count >= 2 else { return }
        let times = points.map(\.time)
        func seconds(_ from: Int, _ to: Int) -> Double { times[to].seconds(since: times[from]) }
        func continuous(_ interval: Int) -> Bool { seconds(interval, interval + 1) <= silenceThreshold }
        for interval in 0..<(points.count - 1) {
            let elapsed = seconds(interval, interval + 1)
            guard elapsed > 0 else { continue }
            guard continuous(interval) else {
                let across = Geodesic.distance(points[interval].coordinate, points[interval + 1].coordinate)
                let speed = across / elapsed
                maxSpeed = max(maxSpeed, speed)
                if across >= TripMeasurement.gapEvidenceDistance, speed > gapSpeed { (gapSpeed, gapDistance) = (speed, across) }
                continue
            }
            // Grow the window alternately forwards and backwards, never across a silence.
            var (start, end) = (interval, interval + 1)
            while seconds(start, end) < TripMeasurement.window {
                let canGrowForward = end + 1 < points.count && continuous(end)
                let canGrowBack = start > 0 && continuous(start - 1)
                if canGrowForward && (!canGrowBack || seconds(interval, end) <= seconds(start, interval + 1)) {
                    end += 1
                } else if canGrowBack {
                    start -= 1
                } else {
                    break
                }
            }
            let speed = Geodesic.sphericalDistance(points[start].coordinate, points[end].coordinate) / seconds(start, end)
            maxSpeed = max(maxSpeed, speed)
            if speed >= TripMeasurement.movingSpeed {
                movingTime += elapsed
                moving.append((speed, elapsed))
            }
        }
        moving.sort { $0.speed < $1.speed }
    }

    /// The time-weighted `fraction` percentile of the moving speeds; 0 when there are none.
    func movingPercentile(_ fraction: Double) -> Double {
        guard movingTime > 0 else { return 0 }
        var covered = 0.0
        for sample in moving {
            covered += sample.seconds
            if covered >= fraction * movingTime { return sample.speed }
        }
        return moving.last?.speed ?? 0
    }
}
