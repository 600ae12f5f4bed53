import Foundation
import WaymarkCore

/// A true track built leg by leg — stays, straight legs at a constant speed, silences — for the
/// timeline's tests; `observed` then adds the error a phone adds.
struct SimulatedDay {
    private(set) var fixes: [Fix] = []
    private(set) var position: Coordinate
    /// Seconds after `startTime`.
    private(set) var clock: Double

    init(at position: Coordinate, clock: Double = 0) {
        self.position = position
        self.clock = clock
    }

    var time: Timestamp { startTime.adding(seconds: clock) }

    /// Still at the current position for `seconds`, a fix every `step` seconds from now on.
    mutating func stay(for seconds: Double, every step: Double = 10, altitude: Double? = nil) {
        var elapsed = 0.0
        while elapsed < seconds {
            fixes.append(Fix(time: startTime.adding(seconds: clock + elapsed), coordinate: position, altitude: altitude))
            elapsed += step
        }
        clock += seconds
    }

    /// Nothing recorded for `seconds`; the device stays where it is.
    mutating func silence(for seconds: Double) { clock += seconds }

    /// Straight to `target` at `speed` m/s, a fix every `step` seconds after leaving and one on
    /// arrival; none at all when not `recorded` (a tunnel, a phone in a bag).
    mutating func travel(to target: Coordinate, speed: Double, every step: Double = 2, recorded: Bool = true) {
        let (distance, azimuth, _) = Geodesic.inverse(position, target)
        let duration = distance / speed
        var elapsed = step
        while recorded, elapsed < duration {
            let along = Geodesic.destination(from: position, azimuth: azimuth, distance: speed * elapsed)
            fixes.append(Fix(time: startTime.adding(seconds: clock + elapsed), coordinate: along))
            elapsed += step
        }
        clock += duration
        position = target
        if recorded { fixes.append(Fix(time: time, coordinate: target)) }
    }

    /// Through `waypoints` at `speed`, stopping `stop` seconds (fixes every `step`) at each.
    mutating func drive(through waypoints: [Coordinate], speed: Double, stop: Double, step: Double = 2) {
        for (index, waypoint) in waypoints.enumerated() {
            travel(to: waypoint, speed: speed * (index.isMultiple(of: 2) ? 1 : 1.6), every: step)
            if index < waypoints.count - 1 { stay(for: stop, every: step) }
        }
    }
}

/// Phone-like error on `truth`: a wandering offset (per axis an AR(1) walk with `sigma` metres
/// of spread and a `correlation`-second memory), with probability `outlierRate` a fix thrown
/// 800–3000 m away, and a stated accuracy on a fix with probability `accuracyRate`.
func observed(
    _ truth: [Fix], sigma: Double = 6, correlation: Double = 60, outlierRate: Double = 0.005, accuracyRate: Double = 0.5,
    seed: UInt64
) -> [Fix] {
    var random = SplitMix64(seed: seed)
    var wander = (north: 0.0, east: 0.0)
    var last: Timestamp?
    return truth.map { fix in
        var memory = 0.0
        if let time = fix.time, let last { memory = exp(-time.seconds(since: last) / correlation) }
        let fresh = sigma * (1 - memory * memory).squareRoot() / 2.0.squareRoot()
        wander = (memory * wander.north + fresh * random.nextGaussian(), memory * wander.east + fresh * random.nextGaussian())
        last = fix.time
        var north = wander.north
        var east = wander.east
        if random.uniform(0...1) < outlierRate {
            let (distance, direction) = (random.uniform(800...3000), random.uniform(0...(2 * .pi)))
            (north, east) = (distance * cos(direction), distance * sin(direction))
        }
        let moved = Geodesic.destination(
            from: fix.coordinate, azimuth: atan2(east, north) * 180 / .pi, distance: (north * north + east * east).squareRoot())
        var noisy = fix
        noisy.coordinate = moved
        noisy.horizontalAccuracy = random.uniform(0...1) < accuracyRate ? sigma * 1.5 : nil
        return noisy
    }
}
