import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkExport
import WaymarkStore
import WaymarkTimelineJob

/// `waymark export --timeline`: a day of the device's timeline as an overlay file (GPX or
/// GeoJSON), the same stays and trips `waymark timeline` prints (docs/timeline.md).
extension ExportCommand {
    func validateTimeline() throws {
        guard timeline else { throw ValidationError("--day goes with --timeline") }
        guard history.database != nil, track == nil else { throw ValidationError("--timeline exports the history: give --db, not a track") }
        guard format == "gpx" || format == "geojson" else { throw ValidationError("--timeline writes gpx or geojson, got '\(format)'") }
        let options = TimelineRangeOptions(device: history.device ?? "local", day: day, from: history.from, to: history.to)
        try options.validate()
    }

    func runTimeline() async throws {
        let path = history.database!
        guard FileManager.default.fileExists(atPath: path) else { throw CommandError("--db: no database at \(path)") }
        let job = try await TimelineRangeOptions.job(database: path, logger: CommandLogging.logger("waymark.export"))
        let range = TimelineRangeOptions(device: history.device ?? "local", day: day, from: history.from, to: history.to)
        let timeline = try await range.timeline(job)
        let overlay = timeline.overlay
        let text = format == "gpx" ? DayOverlayGPX.document(overlay) : DayOverlayGeoJSON.document(overlay)
        if output == "-" {
            print(text, terminator: "")
            return
        }
        let output = output
        try await WaymarkStore.offPool { try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic) }
        printError("export: \(output): \(overlay.stops.count) stays, \(overlay.legs.count) trips (\(timeline.timeZone))")
    }
}
