import Foundation
import Testing
import WaymarkTestSupport

/// The web page's History view (docs/web.md) in a real browser in Berlin's time zone, against a
/// daemon that replayed the sample ride as `local` and holds `Tracks/three-days.gpx` imported
/// as `phone`. `Tests/Browser/history_view.py` checks the default range (each device's latest
/// local day), the calendar (the days with data and their counts, a click, the keyboard) and the
/// heat map in place of the track line.
@Suite struct HistoryViewBrowserTests {
    @Test func theHistoryViewOpensOnTheLatestDayWithACalendarAndAHeatMap() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let days = ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/three-days.gpx").path
        for arguments in [["devices", "add", "phone", "--db", db], ["import", days, "--device", "phone", "--db", db]] {
            let result = try await runWaymark(arguments)
            try #require(result.status == 0, "waymark \(arguments.joined(separator: " ")): \(result.stderr)")
        }
        let track = ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path
        let screenshot = ProcessInfo.processInfo.environment["WAYMARK_HISTORY_SCREENSHOT"] ?? directory.path("history.png")
        // Replayed as fast as it goes: the ride's day is recorded by the time the page opens.
        try await BrowserScriptRun.run(
            "history_view.py", serve: ["--replay", track, "--regions", ProjectPaths.repositoryRoot.appendingPathComponent("Regions").path],
            arguments: ["--screenshot", screenshot], in: directory)
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }
}
