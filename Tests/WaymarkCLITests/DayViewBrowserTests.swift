import Foundation
import Testing
import WaymarkTestSupport

/// The web page's day view (docs/timeline/web.md) in a real browser (Debian's headless Chromium
/// through Selenium) against a real daemon that replayed the project's sample ride, which stops
/// ten minutes at the hut, over its sample regions. `Tests/Browser/day_view.py` checks the
/// listed stay (named by the region, at the local time the track stopped), the trips (mode,
/// distance, places, drawn in their mode's colour), the keyboard, a phone's width, and that the
/// page asked only documented endpoints.
@Suite struct DayViewBrowserTests {
    @Test func theDayViewListsAndDrawsTheReplayedRide() async throws {
        let directory = try TemporaryDirectory()
        let (track, regions) = (BrowserScriptRun.project("Tracks/lakeside-ride.gpx"), BrowserScriptRun.project("Regions/lakeside.geojson"))
        let screenshot = BrowserScriptRun.screenshot("WAYMARK_DAY_SCREENSHOT", "day.png", in: directory)
        // Replayed as fast as it goes: the day is recorded by the time the page opens, and the
        // daemon stays up after the track.
        try await BrowserScriptRun.run(
            "day_view.py", serve: ["--replay", track, "--regions", regions],
            arguments: [
                "--track", track, "--regions", regions, "--stop-region", "hut", "--start-region", "trailhead",
                "--screenshot", screenshot,
            ], in: directory)
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }
}
