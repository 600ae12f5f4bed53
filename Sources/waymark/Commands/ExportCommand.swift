import ArgumentParser
import WaymarkDevices
import WaymarkCore
import WaymarkExport
import WaymarkExportJob
import WaymarkServices
import WaymarkStore

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a GPX track or the recorded history as GPX, GeoJSON, KML, KMZ, or a picture.",
        discussion: """
            The track is split into segments at gaps (a new trk/trkseg, a stored gap, or more than \
            300 s without a fix while moving more than 100 m). Events come from the same engine \
            and services as `waymark replay`: region enter/exit, visits (arrival/departure) and \
            significant changes. Statistics (distance, moving time, smoothed elevation gain and \
            loss, speeds) go into every format. docs/export.md explains each choice.

            Formats:
              gpx      GPX 1.1: events as waypoints, then the track in segments
              geojson  RFC 7946 FeatureCollection: track, events as Points, regions as Polygons
              kml      KML 2.2: styled track, event placemarks, region polygons
              svg      picture: route over the regions, markers, scale bar, north arrow,
                       elevation profile
              png      the same picture drawn by cairo
              overlay  transparent PNG of the map alone, with FILE.pgw (world file) and
                       FILE.kml (GroundOverlay) beside it, for map apps
              kmz      one file: the KML, its icons and the overlay as a GroundOverlay
              mbtiles  the overlay as transparent Web Mercator tiles (MBTiles 1.3, zooms
                       --min-zoom…--max-zoom), for OsmAnd, Locus and QGIS

            With --timeline (and --db): the device's day as stays and trips instead of the track,             as gpx (stays as named waypoints, a track per trip in its mode's colour) or geojson             (docs/timeline.md); --day YYYY-MM-DD picks the local day, --from/--to a range.

            The output appears only when complete (written to a temporary file, then renamed). \
            Exit status: 0 on success, 1 on bad input (GPX errors as FILE:LINE:COLUMN: message), \
            64 on bad options.
            """)

    @Argument(help: "The GPX 1.0 or 1.1 file to export (or give --db).")
    var track: String?

    @OptionGroup var history: HistoryRangeOptions

    @Option(help: "gpx, geojson, kml, svg, png, overlay, kmz or mbtiles.")
    var format: String

    @Option(name: .shortAndLong, help: "The file to write ('-' for standard output; text formats only).")
    var output: String

    @Option(
        name: .long, parsing: .upToNextOption,
        help: "GeoJSON files or folders of regions to monitor, export and draw (default with --db: the database's regions).")
    var regions: [String] = []

    @Option(name: .customLong("id-property"), help: "Feature property that names a region.")
    var idProperty: String?

    @Flag(name: .customLong("number-unnamed"), help: "Name features that have no identifier FILE#INDEX instead of rejecting them.")
    var numberUnnamed = false

    @Option(help: "Simplify the track (Douglas–Peucker) so no point is more than METRES from the result.")
    var simplify: String?

    @Option(help: "Picture width in pixels (svg, png, overlay, kmz), 300…8000.")
    var width = 1200

    @Option(help: "fitness, automotive, other or airborne: the speed bound of the validation gate before the location services.")
    var activity: String = "other"

    @OptionGroup(title: "Pipeline settings (the daemon's keys; docs/configuration.md)")
    var pipeline: PipelineSettingsOptions

    @Option(help: "An MBTiles file of PNG raster tiles (your own offline map) drawn under the map of svg, png, overlay and kmz.")
    var basemap: String?

    @Option(name: .customLong("min-zoom"), help: "With --format mbtiles: the least zoom (default 10).")
    var minZoom: Int?

    @Option(name: .customLong("max-zoom"), help: "With --format mbtiles: the deepest zoom (default 16, at most \(ExportOptions.zoomLimit)).")
    var maxZoom: Int?

    @Flag(help: "With --db: export the device's stays and trips (a timeline day) instead of its track; gpx or geojson.")
    var timeline = false

    @Option(help: "With --timeline: the local day, YYYY-MM-DD (default: the latest day with history).")
    var day: String?

    func validate() throws {
        if timeline || day != nil { return try validateTimeline() }
        guard ExportFormat(rawValue: format) != nil else {
            throw ValidationError("--format must be one of \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")), got '\(format)'")
        }
        if let simplify { _ = try Self.tolerance(simplify) }
        if !(300...8000).contains(width) { throw ValidationError("--width must be 300…8000 pixels, got \(width)") }
        _ = try zooms()
        if basemap != nil, ![.svg, .png, .overlay, .kmz].contains(ExportFormat(rawValue: format)) {
            throw ValidationError("--basemap goes with --format svg, png, overlay or kmz")
        }
        if ActivityType(rawValue: activity) == nil {
            throw ValidationError("--activity must be fitness, automotive, other or airborne, got '\(activity)'")
        }
        _ = try history.source(track: track)
    }

    func run() async throws {
        if timeline { return try await runTimeline() }
        var options = ExportOptions(source: try history.source(track: track), format: ExportFormat(rawValue: format)!, outputPath: output)
        options.regionPaths = regions
        options.idProperty = idProperty
        options.numberUnnamedFeatures = numberUnnamed
        options.simplify = try simplify.map(Self.tolerance)
        options.width = width
        options.activity = ActivityType(rawValue: activity)!
        options.settings = try pipeline.settings()
        options.zooms = try zooms()
        options.basemapPath = basemap
        do {
            let report = try await WaymarkStore.offPool { [options] in try ExportJob.run(options, logger: CommandLogging.logger("waymark.export")) }
            if output != "-" {
                let statistics = report.overview.statistics
                printError(
                    "export: \(report.files.joined(separator: ", ")): \(report.pointsWritten) of \(statistics.points) points in "
                        + "\(statistics.segments) segment\(statistics.segments == 1 ? "" : "s"), \(report.overview.events.count) events, "
                        + "\(report.overview.regions.count) regions")
            }
        } catch FileSinkError.closedPipe {
            // The reader stopped early (e.g. `| head`): not an error.
        }
    }

    /// `--min-zoom`/`--max-zoom`: for mbtiles only, 0…`ExportOptions.zoomLimit`, the least first.
    func zooms() throws -> ClosedRange<Int> {
        if (minZoom != nil || maxZoom != nil) && format != ExportFormat.mbtiles.rawValue {
            throw ValidationError("--min-zoom and --max-zoom go with --format mbtiles")
        }
        let (least, deepest) = (minZoom ?? 10, maxZoom ?? 16)
        for (name, zoom) in [("--min-zoom", least), ("--max-zoom", deepest)] where !(0...ExportOptions.zoomLimit).contains(zoom) {
            throw ValidationError("\(name) must be 0…\(ExportOptions.zoomLimit), got \(zoom)")
        }
        guard least <= deepest else { throw ValidationError("--min-zoom \(least) is deeper than --max-zoom \(deepest)") }
        return least...deepest
    }

    /// `--simplify`: metres, a finite number above 0.05.
    static func tolerance(_ text: String) throws -> Double {
        guard let value = Double(text), value.isFinite, value > 0.05 else {
            throw ValidationError("--simplify must be a tolerance in metres above 0.05, got '\(text)'")
        }
        return value
    }
}

/// `--db PATH [--from T] [--to T]`: the recorded history as the input, instead of a GPX file.
struct HistoryRangeOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: "Export the history recorded in this SpatiaLite database instead of a GPX file.")
    var database: String?

    @Option(help: "With --db: only fixes and events at or after this RFC 3339 time.")
    var from: String?

    @Option(help: "With --db: only fixes and events before this RFC 3339 time.")
    var to: String?

    @Option(help: "With --db: whose history (default: local, the gpsd receiver; docs/devices.md).")
    var device: String?

    /// The input the arguments name; usage errors for a missing or double input and bad times.
    func source(track: String?) throws -> ExportSource {
        switch (track, database) {
        case (nil, nil): throw ValidationError("give a GPX track, or --db PATH for the recorded history")
        case (_?, _?): throw ValidationError("give either a GPX track or --db, not both")
        case (let path?, nil):
            if from != nil || to != nil || device != nil { throw ValidationError("--from, --to and --device go with --db") }
            return .gpx(path: path)
        case (nil, let database?):
            let start = try from.map { try HistoryCommand.time($0, option: "--from") }
            let end = try to.map { try HistoryCommand.time($0, option: "--to") }
            if let start, let end, !(start < end) {
                throw ValidationError("--from (\(start.rfc3339)) must be before --to (\(end.rfc3339))")
            }
            if let device, let problem = DeviceName.problem(with: device) { throw ValidationError("--device: \(problem)") }
            return .history(database: database, from: start, to: end, device: device ?? "local")
        }
    }
}
