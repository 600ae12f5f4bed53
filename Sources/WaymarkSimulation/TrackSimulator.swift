import Foundation
import WaymarkCore

/// Produces the fixes of a `TrackSimulation` one at a time, so a million-point track costs no
/// memory. Conforms to `FixSource`, so a simulation can be replayed directly.
///
/// Model: the true position advances along the route's geodesics at the simulated speed
/// (which wanders slowly around its mean); the reported position adds a first-order
/// Gauss–Markov error per axis; HDOP and satellite count drift within consumer-receiver
/// ranges; altitude follows gentle terrain with its own noise.
public struct TrackSimulator: FixSource, Sendable {
    private let simulation: TrackSimulation
    private var random: SplitMix64
    private var leg = 0
    private var distanceOnLeg = 0.0
    private var legLength: Double
    private var legAzimuth: Double
    private var forward = true
    private var stopRemaining: Double = 0
    private var stoppedAt: Set<Int> = []
    private var elapsed = 0.0
    private var travelled = 0.0
    private var count = 0
    private var errorNorth = 0.0
    private var errorEast = 0.0
    private var speedFactor = 1.0
    private var hdop = 0.9
    private var satellites = 9.0
    private var finished = false

    public init(_ simulation: TrackSimulation) throws(SimulationError) {
        try simulation.validate()
        self.simulation = simulation
        self.random = SplitMix64(seed: simulation.seed)
        let first = Geodesic.inverse(simulation.route[0], simulation.route[1])
        legLength = first.distance
        legAzimuth = first.initialAzimuth
        errorNorth = simulation.noise * random.nextGaussian()
        errorEast = simulation.noise * random.nextGaussian()
        stopRemaining = stopSeconds(at: 0)
    }

    public mutating func next() -> Fix? {
        guard !finished else { return nil }
        if let maximum = simulation.maximumFixes, count >= maximum { return nil }
        let truth = currentPosition()
        let fix = observe(truth)
        count += 1
        advance()
        return fix
    }

    private func currentPosition() -> Coordinate {
        let from = simulation.route[leg]
        return distanceOnLeg == 0 ? from
            : Geodesic.destination(from: from, azimuth: legAzimuth, distance: distanceOnLeg)
    }

    private mutating func observe(_ truth: Coordinate) -> Fix {
        let metresPerDegree = 111_320.0
        let latitude = truth.latitude + errorNorth / metresPerDegree
        let cosine = max(cos(truth.latitude * .pi / 180), 0.01)
        var longitude = truth.longitude + errorEast / (metresPerDegree * cosine)
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        let terrain = 60 * sin(travelled / 1700) + 25 * sin(travelled / 430 + 1)
        let altitude = simulation.startAltitude + terrain + 2.5 * random.nextGaussian()
        let time = simulation.start.adding(seconds: elapsed)
        let currentSpeed = stopRemaining > 0 ? 0 : simulation.speed * speedFactor
        return Fix(
            time: time, coordinate: Coordinate(latitude: min(90, max(-90, latitude)), longitude: longitude),
            altitude: (altitude * 100).rounded() / 100, hdop: (hdop * 10).rounded() / 10,
            satellites: Int(satellites.rounded()), mode: .threeD, speed: currentSpeed)
    }

    private mutating func advance() {
        let dt = simulation.interval
        elapsed += dt
        // Gauss–Markov error: e' = a·e + √(1−a²)·σ·N(0,1), a = exp(−dt/τ).
        let a = exp(-dt / max(simulation.noiseCorrelationTime, dt))
        let spread = (1 - a * a).squareRoot() * simulation.noise
        errorNorth = a * errorNorth + spread * random.nextGaussian()
        errorEast = a * errorEast + spread * random.nextGaussian()
        speedFactor = min(1 + simulation.speedVariation, max(1 - simulation.speedVariation,
            speedFactor + 0.02 * random.nextGaussian()))
        hdop = min(2.5, max(0.6, hdop + 0.05 * random.nextGaussian()))
        satellites = min(14, max(5, satellites + 0.2 * random.nextGaussian()))

        if stopRemaining > 0 {
            stopRemaining -= dt
            return
        }
        var step = simulation.speed * speedFactor * dt
        travelled += step
        while distanceOnLeg + step >= legLength {
            step -= legLength - distanceOnLeg
            guard moveToNextLeg() else { return }
            if stopRemaining > 0 { return }
        }
        distanceOnLeg += step
    }

    /// Starts the leg after the waypoint just reached; returns false when the track has ended.
    private mutating func moveToNextLeg() -> Bool {
        let route = simulation.route
        let arrived = forward ? leg + 1 : leg - 1
        var next = forward ? arrived + 1 : arrived - 1
        if !route.indices.contains(next) {
            guard simulation.loops else {
                finished = true
                return false
            }
            forward.toggle()
            next = forward ? arrived + 1 : arrived - 1
        }
        setLeg(from: arrived, to: next)
        return true
    }

    private mutating func setLeg(from: Int, to: Int) {
        let geodesic = Geodesic.inverse(simulation.route[from], simulation.route[to])
        leg = from
        legLength = geodesic.distance
        legAzimuth = geodesic.initialAzimuth
        distanceOnLeg = 0
        stopRemaining = stopSeconds(at: from)
    }

    private mutating func stopSeconds(at waypoint: Int) -> Double {
        guard !stoppedAt.contains(waypoint) else { return 0 }
        let seconds = simulation.stops.filter { $0.waypoint == waypoint }.reduce(0) { $0 + $1.seconds }
        if seconds > 0 { stoppedAt.insert(waypoint) }
        return seconds
    }
}
