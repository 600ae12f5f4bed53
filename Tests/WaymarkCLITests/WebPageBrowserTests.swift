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
        let db = directory.path("w.sqlite")
        let token = "browser-test-token"
        let tokenFile = try directory.writeSecret("token", token + "\n")
        let port = try freeLoopbackPort()
        let imported = try directory.write(
            "meadow.geojson",
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"meadow",
            "geometry":{"type":"Point","coordinates":[8.69,47.37]},"properties":{"radius":150}}]}
            """)
        // Ten times real time: the first region entry comes about 33 s in, once the page is open.
        let daemon = try BackgroundProcess.waymark([
            "serve", "--replay", ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path,
            "--speed", "10", "--regions", ProjectPaths.repositoryRoot.appendingPathComponent("Regions").path,
            "--db", db, "--socket", directory.path("api.sock"), "--tcp-port", "\(port)", "--token-file", tokenFile,
        ])
        try await daemon.whileRunning {
            let listening = try await BackgroundProcess.waitUntil(timeout: 30) { loopbackAccepts(port: port) }
            try #require(listening, "the API never listened on \(port): \(daemon.stderr.suffix(2000))")
            let screenshot = ProcessInfo.processInfo.environment["WAYMARK_SCREENSHOT"] ?? directory.path("page.png")
            let result = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/python3"),
                [
                    Self.script, "--url", "http://127.0.0.1:\(port)/", "--token", token,
                    "--waymark", ProjectPaths.waymarkExecutable.path, "--db", db,
                    "--openapi", ProjectPaths.repositoryRoot.appendingPathComponent("docs/openapi.yaml").path,
                    "--import-file", imported, "--import-id", "meadow",
                    "--from", "2026-06-01T08:00:00Z", "--to", "2026-06-01T08:08:00Z", "--screenshot", screenshot,
                ])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)\n--- daemon ---\n\(daemon.stderr.suffix(3000))")
            #expect(FileManager.default.fileExists(atPath: screenshot))
        }
    }
}
