import Foundation
import ArgumentParser
import WaymarkCore
import WaymarkExport
import WaymarkSimulation

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write a simulated GPX track: a route at a pace, with realistic GPS noise.",
        discussion: """
            The device follows the waypoints along WGS84 geodesics at --speed (varying slowly by \
            ±15 %), and the receiver reports a fix every --interval seconds with a correlated \
            (Gauss–Markov) position error of --noise metres per axis, HDOP, satellites and altitude. \
            The same options and --seed always give the same file. Tracks/README.md lists the \
            commands that made the project's sample tracks. `waymark simulate phone` plays a track \
            as an OwnTracks phone against a daemon instead.
            """,
        subcommands: [SimulatePhoneCommand.self])

    @Option(name: .customLong("waypoint"), help: "A route waypoint as LAT,LON in degrees; give two or more, in order.")
    var waypoints: [String] = []

    @Option(help: "Mean speed in metres per second (walking 1.4, cycling 5, driving 15).")
    var speed: Double = 5

    @Option(help: "Seconds between fixes.")
    var interval: Double = 1

    @Option(help: "One-sigma horizontal error per axis, metres.")
    var noise: Double = 3

    @Option(name: .customLong("stop"), help: "Stay at waypoint INDEX (0-based) for SECONDS, as INDEX:SECONDS.")
    var stops: [String] = []

    @Option(help: "Time of the first fix, RFC 3339.")
    var start: String = "2026-06-01T08:00:00Z"

    @Option(help: "Write exactly this many fixes, going back and forth along the route as needed.")
    var points: Int?

    @Option(help: "Seed of the noise generator.")
    var seed: UInt64 = 1

    @Option(help: "Name of the track in the file.")
    var name: String?

    @Option(name: .shortAndLong, help: "Output GPX file (default: standard output).")
    var output: String?

    func run() throws {
        guard let startTime = Timestamp(rfc3339: start) else {
            throw ValidationError("--start: '\(start)' is not an RFC 3339 time such as 2026-06-01T08:00:00Z")
        }
        var simulation = TrackSimulation(route: try waypoints.map(Self.coordinate), speed: speed, start: startTime)
        simulation.interval = interval
        simulation.noise = noise
        simulation.seed = seed
        simulation.stops = try stops.map(Self.stop)
        if let points {
            guard points > 0 else { throw ValidationError("--points must be positive") }
            simulation.maximumFixes = points
            simulation.loops = true
        }
        var simulator = try TrackSimulator(simulation)
        let sink = try output.map(FileSink.init(creating:)) ?? FileSink.standardOutput()
        var writer = try GPXWriter(sink: sink, creator: "waymark simulate", trackName: name)
        while let fix = simulator.next() { try writer.write(fix) }
        try writer.finish()
    }

    static func coordinate(_ text: String) throws -> Coordinate {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let latitude = parts[0], let longitude = parts[1],
            Coordinate(latitude: latitude, longitude: longitude).isValid
        else { throw ValidationError("--waypoint: '\(text)' is not LAT,LON in degrees (latitude −90…90, longitude −180…180)") }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    static func stop(_ text: String) throws -> TrackSimulation.Stop {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let index = Int(parts[0]), let seconds = Double(parts[1]) else {
            throw ValidationError("--stop: '\(text)' is not INDEX:SECONDS")
        }
        return TrackSimulation.Stop(waypoint: index, seconds: seconds)
    }
}
