import ArgumentParser
import WaymarkExport
import WaymarkReplay

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a GPX track through the region engine, printing JSON Lines.",
        discussion: """
            Reads the track's points (track points, then route points; waypoints are \
            not a path) in document order, imports the regions into a SpatiaLite \
            database (validated with ST_IsValid), and runs every fix through the \
            region engine.

            Output: one JSON object per line on standard output, each with a "kind":
              state    the first fix: time, latitude, longitude, inside (region IDs)
              region   transition (enter|exit), region, time, latitude, longitude
              summary  the last line: fixes, untimedFixes, regions, transitions
            Times are RFC 3339 in UTC; an untimed point has "time":null. Warnings \
            and progress go to standard error. Exit status: 0 on success, 1 on bad \
            input (reported as FILE:LINE:COLUMN: message), 64 on bad options.
            """)

    @Argument(help: "The GPX 1.0 or 1.1 file to replay.")
    var track: String

    @Option(
        name: .long, parsing: .upToNextOption,
        help: "GeoJSON files or folders of regions (every *.geojson / *.json inside).")
    var regions: [String] = []

    @Option(
        name: .customLong("id-property"),
        help: "Feature property that names a region (default: the feature's id, then properties.identifier, then properties.name).")
    var idProperty: String?

    @Flag(name: .customLong("number-unnamed"), help: "Name features that have no identifier FILE#INDEX (e.g. ne_50m_urban_areas#17) instead of rejecting them.")
    var numberUnnamed = false

    @Option(name: .customLong("db"), help: "SpatiaLite database to import the regions into and keep (default: a private in-memory one). With no --regions, the regions already stored there are used.")
    var database: String?

    @Flag(help: "Replay as fast as possible (the default when standard output is not a terminal).")
    var fast = false

    @Option(help: "Replay FACTOR times faster than real time (the default on a terminal is 1, real time).")
    var speed: Double?

    func validate() throws {
        if fast && speed != nil { throw ValidationError("--fast and --speed cannot be used together") }
        if let speed, !(speed.isFinite && speed > 0) { throw ValidationError("--speed must be a positive number, got \(speed)") }
    }

    func run() async throws {
        let pacing: Pacing
        if let speed {
            pacing = .scaled(by: speed)
        } else if fast || !Terminal.standardOutputIsTerminal {
            pacing = .asFastAsPossible
        } else {
            pacing = .scaled(by: 1)
        }
        var options = ReplayOptions(
            trackPath: track, regionPaths: regions, idProperty: idProperty, databasePath: database, pacing: pacing)
        options.numberUnnamedFeatures = numberUnnamed
        let output = FileSink.standardOutput()
        let progress: ReplayProgress? = Terminal.standardErrorIsTerminal ? ReplayProgress(report: { Terminal.status($0) }) : nil
        do {
            _ = try await Replay.run(options, output: output, progress: progress, logger: CommandLogging.logger("waymark.replay"))
        } catch FileSinkError.closedPipe {
            // The reader stopped early (e.g. `| head`): not an error.
        }
        if progress != nil { Terminal.status(nil) }
    }
}
