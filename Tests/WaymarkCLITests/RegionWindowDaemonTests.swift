import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// A real daemon with 10,000 regions answering an OwnTracks phone over HTTP (docs/devices.md,
/// "Regions on the phone"): the phone is sent the 20 nearest, a new window when it goes far,
/// and small replies in between.
@Suite struct RegionWindowDaemonTests {
    /// 100 × 100 circles of 150 m, 0.01° apart, south-west corner at `corner`, and `plaza` (the
    /// single daemon's rig has handlers watch it) at the corner: 10,000 regions.
    static func grid(corner: Coordinate = Coordinate(latitude: 47, longitude: 8)) -> (geoJSON: String, centres: [String: (Coordinate, Double)]) {
        var features: [String] = []
        var centres: [String: (Coordinate, Double)] = ["plaza": (corner, 100)]
        features.append(#"{"type":"Feature","id":"plaza","geometry":{"type":"Point","coordinates":[\#(corner.longitude),\#(corner.latitude)]},"properties":{"radius":100}}"#)
        for row in 0..<100 {
            for column in 0..<100 where features.count < 10_000 {
                let c = Coordinate(latitude: corner.latitude + 0.005 + Double(row) * 0.01, longitude: corner.longitude + 0.005 + Double(column) * 0.01)
                let id = "g\(row)-\(column)"
                centres[id] = (c, 150)
                features.append(#"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[\#(c.longitude),\#(c.latitude)]},"properties":{"radius":150}}"#)
            }
        }
        return (#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}", centres)
    }

    /// The identifiers of the `count` circles nearest to `c` (0 inside), ties by identifier.
    static func nearest(_ count: Int, of centres: [String: (Coordinate, Double)], to c: Coordinate) -> [String] {
        centres.map { ($0.key, max(Geodesic.distance(c, $0.value.0) - $0.value.1, 0)) }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(count).map(\.0)
    }

    /// The `rid`s of the reply's `setWaypoints`, and whether `clearWaypoints` came first.
    static func window(in body: String) throws -> (cleared: Bool, identifiers: [String])? {
        let commands = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]])
        guard let set = commands.firstIndex(where: { $0["action"] as? String == "setWaypoints" }) else { return nil }
        let list = try #require((commands[set]["waypoints"] as? [String: Any])?["waypoints"] as? [[String: Any]])
        let cleared = commands.firstIndex { $0["action"] as? String == "clearWaypoints" }.map { $0 < set } ?? false
        return (cleared, list.compactMap { $0["rid"] as? String })
    }

    @Test func aPhoneIsSentTheNearestTwentyOfTenThousandAndANewWindowFarAway() async throws {
        let (geoJSON, centres) = Self.grid()
        #expect(centres.count == 10_000)
        let rig = try await NetworkDevicesTests.Rig.start(regions: geoJSON)
        try await rig.daemon.whileRunning {
            let headers = ["X-Limit-U: alice", "X-Limit-D: phone", "Authorization: Basic " + Data("alice:\(rig.phoneSecret)".utf8).base64EncodedString()]
            let start = Int(Date().timeIntervalSince1970) - 3600
            let nearest = { (c: Coordinate) in Self.nearest(20, of: centres, to: c) }

            // First report at the plaza: the 20 nearest, the phone's list cleared first.
            let home = Coordinate(latitude: 47.0, longitude: 8.0)
            let first = try await rig.ownTracks(NetworkDevicesTests.location(latitude: home.latitude, longitude: home.longitude, at: start), headers)
            #expect(first.status == 200)
            let window = try #require(try Self.window(in: first.body), "\(first.body.prefix(500))")
            #expect(window.cleared)
            #expect(window.identifiers.count == 20)
            #expect(window.identifiers.contains("plaza"))
            #expect(Set(window.identifiers) == Set(nearest(home)))
            #expect(first.body.utf8.count < 6_000, "\(first.body.utf8.count) bytes")

            // A few metres on: no new window, a small reply.
            let wander = try await rig.ownTracks(NetworkDevicesTests.location(latitude: 47.0001, longitude: 8.0001, at: start + 60), headers)
            #expect(wander.status == 200)
            #expect(try Self.window(in: wander.body) == nil, "\(wander.body)")
            #expect(!wander.body.contains("clearWaypoints"))
            #expect(wander.body.utf8.count < 1_000)

            // 40 km north-east: every region of the old window goes, 20 new ones come.
            let far = Coordinate(latitude: 47.4, longitude: 8.4)
            let moved = try await rig.ownTracks(NetworkDevicesTests.location(latitude: far.latitude, longitude: far.longitude, at: start + 3000), headers)
            let next = try #require(try Self.window(in: moved.body), "\(moved.body.prefix(500))")
            #expect(next.cleared)
            #expect(Set(next.identifiers) == Set(nearest(far)))
            #expect(Set(next.identifiers).isDisjoint(with: window.identifiers))

            // Reply time with 10,000 regions: a report every 2 km along a diagonal, each a new window.
            var times: [Double] = []
            for step in 0..<30 {
                let c = Coordinate(latitude: 47.05 + Double(step) * 0.018, longitude: 8.05 + Double(step) * 0.018)
                // curl's own time from sending the request to the last byte of the answer.
                let sent = try await runProcess(
                    URL(fileURLWithPath: "/usr/bin/curl"),
                    ["--silent", "--max-time", "30", "--write-out", "\n%{time_total}", "-X", "POST", "-H", "Content-Type: application/json",
                     "--data-binary", NetworkDevicesTests.location(latitude: c.latitude, longitude: c.longitude, at: start + 3100 + step * 60)]
                        + headers.flatMap { ["-H", $0] } + ["http://127.0.0.1:\(rig.port)/v1/owntracks"])
                var lines = sent.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let seconds = try #require(Double(lines.popLast() ?? ""), "\(sent.stdout)\(sent.stderr)")
                #expect(try Self.window(in: lines.joined(separator: "\n"))?.identifiers.count == 20)
                times.append(seconds * 1000)
            }
            times.sort()
            let median = times[times.count / 2]
            print("region window reply (10,000 regions, a new window each): median \(median) ms, max \(times.last!) ms")
            #expect(median < 2_000, "median reply \(median) ms")
        }
    }
}
