import WaymarkCore

/// What to simulate: a route followed at a given pace, sampled by a receiver with realistic
/// error. Every field has a unit; the same values and seed give the same track everywhere.
public struct TrackSimulation: Sendable {
    /// Waypoints, followed along WGS84 geodesics. At least two.
    public var route: [Coordinate]
    /// Mean speed over ground, metres per second.
    public var speed: Double
    /// Relative speed variation (0.1 = ±10 %, slowly varying).
    public var speedVariation: Double = 0.15
    /// Seconds between fixes.
    public var interval: Double = 1
    /// One-sigma horizontal position error, metres per axis. Consumer GNSS in open sky: 2–5 m.
    public var noise: Double = 3
    /// Correlation time of the position error, seconds (first-order Gauss–Markov). Receiver
    /// errors wander slowly rather than jumping from fix to fix; 30–120 s is typical.
    public var noiseCorrelationTime: Double = 60
    /// Time of the first fix.
    public var start: Timestamp
    /// Altitude at the start, metres.
    public var startAltitude: Double = 400
    /// Stops on the way: stay at route waypoint `waypoint` for `seconds` (fixes keep coming,
    /// with noise, as from a receiver left on in a hut).
    public var stops: [Stop] = []
    /// Stop after this many fixes even if the route is not finished (for large generated files).
    public var maximumFixes: Int? = nil
    /// When the route ends before `maximumFixes`, go back along it and repeat.
    public var loops: Bool = false
    public var seed: UInt64 = 1

    public struct Stop: Sendable, Equatable {
        public var waypoint: Int
        public var seconds: Double
        public init(waypoint: Int, seconds: Double) {
            self.waypoint = waypoint
            self.seconds = seconds
        }
    }

    public init(route: [Coordinate], speed: Double, start: Timestamp) {
        self.route = route
        self.speed = speed
        self.start = start
    }
}

/// Why a simulation cannot run.
public struct SimulationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension TrackSimulation {
    /// Checks the parameters, naming the first one that cannot work.
    public func validate() throws(SimulationError) {
        guard route.count >= 2 else { throw SimulationError(message: "route: needs at least two waypoints") }
        for (index, point) in route.enumerated() where !point.isValid {
            throw SimulationError(message: "route[\(index)]: \(point.latitude),\(point.longitude) is not a WGS84 position")
        }
        guard speed.isFinite, speed > 0 else { throw SimulationError(message: "speed: must be a positive number of m/s") }
        guard interval.isFinite, interval > 0 else { throw SimulationError(message: "interval: must be a positive number of seconds") }
        guard noise.isFinite, noise >= 0 else { throw SimulationError(message: "noise: must be zero or more metres") }
        guard (0..<1).contains(speedVariation) else { throw SimulationError(message: "speedVariation: must be in 0..<1") }
        for stop in stops where !route.indices.contains(stop.waypoint) || !(stop.seconds >= 0) {
            throw SimulationError(message: "stops: waypoint \(stop.waypoint) for \(stop.seconds) s is not on the route")
        }
    }
}
