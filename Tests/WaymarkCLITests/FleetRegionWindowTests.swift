import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// A fleet's ingest node steers a phone's region window as the single daemon does (docs/fleet.md,
/// docs/devices.md "Regions on the phone"): 20 of 10,000 regions, a new window far away, the
/// regions' changes followed.
@Suite(.serialized) struct FleetRegionWindowTests {
    @Test func anIngestNodeSendsThePhoneTheNearestTwentyAndANewWindowFarAway() async throws {
        // Far from the fleet rig's own regions (lakeside, near 47.36° N 8.67° E).
        let (geoJSON, centres) = RegionWindowDaemonTests.grid(corner: Coordinate(latitude: 40, longitude: -3))
        let rig = try await FleetTests.Rig.start(workers: 1, partitions: 2) { db in
            let file = URL(fileURLWithPath: db).deletingLastPathComponent().appendingPathComponent("grid.geojson")
            try geoJSON.write(to: file, atomically: true, encoding: .utf8)
            let imported = try await runWaymark(["regions", "import", file.path, "--db", db])
            try #require(imported.status == 0, "\(imported.stderr)")
        }
        do {
            let walker = try #require(rig.devices.first { $0.name == "walker" })
            let start = Int(Date().timeIntervalSince1970) - 3600
            func post(_ latitude: Double, _ longitude: Double, at seconds: Int) async throws -> String {
                let sent = try await runProcess(
                    URL(fileURLWithPath: "/usr/bin/curl"),
                    ["--silent", "--show-error", "--write-out", "\\n%{http_code}", "-u", "walker:\(walker.secret)", "-H", "Content-Type: application/json",
                     "-H", "X-Limit-U: walker", "-H", "X-Limit-D: walker",
                     "--data-binary", #"{"_type":"location","lat":\#(latitude),"lon":\#(longitude),"tst":\#(seconds),"acc":10,"tid":"wa"}"#,
                     "http://127.0.0.1:\(rig.ingestPort)/v1/owntracks"])
                #expect(sent.stdoutLines.last == "200", "\(sent.stdout)\(sent.stderr)")
                return sent.stdoutLines.dropLast().joined(separator: "\n")
            }
            let home = Coordinate(latitude: 40.2, longitude: -2.8)
            let first = try #require(try RegionWindowDaemonTests.window(in: try await post(home.latitude, home.longitude, at: start)))
            #expect(first.cleared)
            #expect(Set(first.identifiers) == Set(RegionWindowDaemonTests.nearest(20, of: centres, to: home)))
            let wander = try await post(40.2001, -2.8001, at: start + 60)
            #expect(try RegionWindowDaemonTests.window(in: wander) == nil, "\(wander)")
            let far = Coordinate(latitude: 40.6, longitude: -2.4)
            let moved = try #require(try RegionWindowDaemonTests.window(in: try await post(far.latitude, far.longitude, at: start + 3000)))
            #expect(moved.cleared)
            #expect(Set(moved.identifiers) == Set(RegionWindowDaemonTests.nearest(20, of: centres, to: far)))
            // A region added where the phone is: its next report gets a window holding it.
            let file = try rig.directory.write(
                "pond.geojson",
                #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"pond","geometry":{"type":"Point","coordinates":[\#(far.longitude),\#(far.latitude)]},"properties":{"radius":80}}]}"#)
            _ = try await rig.waymark(["fleet", "import", "--regions", file])
            var replies: [String] = []
            let resent = try await BackgroundProcess.waitUntil(timeout: 10) {
                let reply = try await post(far.latitude, far.longitude, at: start + 3060 + replies.count)
                replies.append(reply)
                return try RegionWindowDaemonTests.window(in: reply)?.identifiers.contains("pond") == true
            }
            #expect(resent, "\(replies)")
        } catch {
            try? await rig.stop()
            throw error
        }
        try await rig.stop()
    }
}
