import Foundation
import Testing
import WaymarkTestSupport

/// The web page's browser test (`Tests/Browser/web_page.py`, as WebPageBrowserTests runs it
/// against a single daemon) against a fleet's api node: an ingest node and a worker fed three
/// phones' OwnTracks locations while the page follows them. The script's checks that apply to a
/// fleet: signing in with the token, the live marker moving, a region entry listed and
/// recoloured, the history's counts equal to PostgreSQL's, a region imported and removed
/// through the page reaching PostgreSQL, a phone's width, named controls, only documented
/// requests, no console errors. Left out, as the fleet has neither: "why?" beside an event
/// (fleet events carry no integer id; the script checks it is not offered) and the energy chart.
@Suite(.serialized) struct FleetWebPageBrowserTests {
    @Test func thePageFollowsTheFleetAndImportsARegion() async throws {
        try await FleetAPITests.withAPINode { rig, api in
            let imported = try rig.directory.write(
                "meadow.geojson",
                """
                {"type":"FeatureCollection","features":[{"type":"Feature","id":"meadow",
                "geometry":{"type":"Point","coordinates":[8.69,47.37]},"properties":{"radius":150}}]}
                """)
            // The phones send the ride at about 25 fixes a second each, so that the page, open by
            // the time the first fixes are stored, sees the marker move and regions entered.
            let pairs = rig.devices.map { "\($0.name):\($0.secret)" }
            let feeder = try BackgroundProcess(
                URL(fileURLWithPath: "/usr/bin/python3"),
                [FleetTests.feeder, "http://127.0.0.1:\(rig.ingestPort)", FleetTests.track] + pairs + ["--batch", "5", "--pause", "0.2"])
            let started = try await BackgroundProcess.waitUntil(timeout: 60) {
                Int(try await rig.sql("SELECT count(DISTINCT device) FROM fixes").first ?? "") == 3
            }
            try #require(started, "no fixes stored: \(feeder.stderr.suffix(1000))")
            let screenshot = ProcessInfo.processInfo.environment["WAYMARK_SCREENSHOT"] ?? rig.directory.path("fleet-page.png")
            let result = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/python3"),
                [
                    WebPageBrowserTests.script, "--url", "http://127.0.0.1:\(api.port)/", "--token", api.token,
                    "--waymark", ProjectPaths.waymarkExecutable.path, "--postgres", rig.servers.postgresURL,
                    "--openapi", ProjectPaths.repositoryRoot.appendingPathComponent("docs/openapi.yaml").path,
                    "--import-file", imported, "--import-id", "meadow",
                    "--from", "2026-06-01T08:00:00Z", "--to", "2026-06-01T08:08:00Z", "--screenshot", screenshot,
                ])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)\n--- api node ---\n\(api.process.stderr.suffix(3000))")
            #expect(FileManager.default.fileExists(atPath: screenshot))
            feeder.send(SIGTERM)
            _ = try await feeder.wait(timeout: 10)
        }
    }
}
