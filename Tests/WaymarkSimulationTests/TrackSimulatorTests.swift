import Testing
import WaymarkCore
import WaymarkSimulation

private let start = Timestamp(rfc3339: "2026-06-01T08:00:00Z")!
private let sampleRoute = [
    Coordinate(latitude: 47.0, longitude: 8.0),
    Coordinate(latitude: 47.01, longitude: 8.0),
    Coordinate(latitude: 47.01, longitude: 8.02),
]

private func simulate(_ configure: (inout TrackSimulation) -> Void = { _ in }) throws -> [Fix] {
    var simulation = TrackSimulation(route: sampleRoute, speed: 5, start: start)
    configure(&simulation)
    var simulator = try TrackSimulator(simulation)
    var fixes: [Fix] = []
    while let fix = simulator.next() { fixes.append(fix) }
    return fixes
}

@Test func sameSeedGivesTheSameTrackAndAnotherSeedDoesNot() throws {
    let a = try simulate()
    let b = try simulate()
    let c = try simulate { $0.seed = 2 }
    #expect(a == b)
    #expect(a != c)
}

@Test func fixesComeAtTheIntervalAndTheRouteTakesItsLengthOverSpeed() throws {
    let fixes = try simulate { $0.speedVariation = 0 }
    let length = Geodesic.distance(sampleRoute[0], sampleRoute[1]) + Geodesic.distance(sampleRoute[1], sampleRoute[2])
    let duration = fixes.last!.time!.seconds(since: fixes.first!.time!)
    #expect(abs(duration - length / 5) <= 1)
    for (previous, next) in zip(fixes, fixes.dropFirst()) {
        #expect(next.time!.seconds(since: previous.time!) == 1)
    }
}

@Test func noiseStaysNearTheConfiguredSigma() throws {
    let fixes = try simulate { $0.noise = 4; $0.route = [sampleRoute[0], sampleRoute[0]]; $0.speed = 1; $0.stops = [.init(waypoint: 0, seconds: 20_000)] }
    let errors = fixes.map { Geodesic.distance($0.coordinate, sampleRoute[0]) }
    let rms = (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
    // Two axes of σ = 4 m give a radial RMS of 4·√2 ≈ 5.7 m; allow for the slow correlation.
    #expect(rms > 3 && rms < 9, "radial RMS \(rms) m")
}

@Test func aStopKeepsTheDeviceInPlaceForItsDuration() throws {
    let fixes = try simulate { $0.noise = 0; $0.stops = [.init(waypoint: 1, seconds: 300)] }
    let atCorner = fixes.filter { Geodesic.distance($0.coordinate, sampleRoute[1]) < 0.5 }
    #expect(atCorner.count >= 300 && atCorner.count <= 302)
}

@Test func maximumFixesWithLoopsMakesLongTracks() throws {
    let fixes = try simulate { $0.maximumFixes = 5_000; $0.loops = true }
    #expect(fixes.count == 5_000)
}

enum BadParameter: String, CaseIterable, Sendable {
    case speed, route, routePoint = "route[1]", interval

    func apply(to simulation: inout TrackSimulation) {
        switch self {
        case .speed: simulation.speed = 0
        case .route: simulation.route = [sampleRoute[0]]
        case .routePoint: simulation.route[1] = Coordinate(latitude: 95, longitude: 0)
        case .interval: simulation.interval = -1
        }
    }
}

@Test(arguments: BadParameter.allCases)
func badParametersAreNamed(_ parameter: BadParameter) {
    #expect {
        _ = try simulate(parameter.apply)
    } throws: { error in
        (error as? SimulationError)?.message.hasPrefix(parameter.rawValue + ":") == true
    }
}
