import ArgumentParser
import WaymarkExport
import WaymarkExportJob

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print a track's distance, times, elevation gain and loss, and speeds.",
        discussion: """
            Distance: WGS84 geodesics between consecutive points of each segment (the track is \
            split as `waymark export` splits it). Moving time: intervals where the device moved \
            at least 0.3 m/s over the last 30 s. Elevation gain and loss: altitudes smoothed over \
            50 m of distance, then counted in steps of at least 5 m. Maximum speed: the fastest \
            stretch of at least 10 s. docs/export.md has the details.

            Text by default; --json prints one object (metres, seconds, metres per second).
            """)

    @Argument(help: "The GPX 1.0 or 1.1 file (or give --db).")
    var track: String?

    @OptionGroup var history: HistoryRangeOptions

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @OptionGroup(title: "Pipeline settings (the daemon's keys; docs/configuration.md)")
    var pipeline: PipelineSettingsOptions

    func validate() throws { _ = try history.source(track: track) }

    func run() throws {
        let overview = try ExportJob.overview(
            of: try history.source(track: track), settings: try pipeline.settings(), logger: CommandLogging.logger("waymark.stats"))
        if json {
            print(overview.statistics.json)
            return
        }
        let rows = overview.statistics.table
        let width = rows.map(\.label.count).max() ?? 0
        if let name = overview.name { print(name) }
        for row in rows { print(row.label + String(repeating: " ", count: width - row.label.count + 2) + row.value) }
    }
}
