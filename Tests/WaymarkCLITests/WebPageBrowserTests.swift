import Foundation
import Testing
import WaymarkTestSupport

/// The web page in a real browser (Debian's headless Chromium through Selenium and
/// chromium-driver) against a real daemon replaying the project's sample track over its sample
/// regions, signed in over the TCP listener with its token. `Tests/Browser/web_page.py` does the
/// clicking and checking (the live marker moving, a region entry listed and recoloured, history
/// counts equal to `waymark history`'s, a GeoJSON import reaching `waymark regions list`, only
/// documented requests, a phone's width, no console errors).
@Suite struct WebPageBrowserTests {
    static let script = ProjectPaths.repositoryRoot.appendingPathComponent("Tests/Browser/web_page.py").path

    @Test func thePageFollowsAReplayAndImportsARegion() async throws {
        let directory = try TemporaryDirectory()
        let imported = try directory.write(
            "meadow.geojson",
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"meadow",
            "geometry":{"type":"Point","coordinates":[8.69,47.37]},"properties":{"radius":150}}]}
            """)
        let screenshot = ProcessInfo.processInfo.environment["WAYMARK_SCREENSHOT"] ?? directory.path("page.png")
        // Ten times real time: the first region entry comes about 33 s in, once the page is open.
        try await BrowserScriptRun.run(
            "web_page.py",
            serve: [
                "--replay", ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path,
                "--speed", "10", "--regions", ProjectPaths.repositoryRoot.appendingPathComponent("Regions").path,
            ],
            arguments: [
                "--import-file", imported, "--import-id", "meadow",
                "--from", "2026-06-01T08:00:00Z", "--to", "2026-06-01T08:08:00Z", "--screenshot", screenshot,
            ], in: directory)
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }
}
