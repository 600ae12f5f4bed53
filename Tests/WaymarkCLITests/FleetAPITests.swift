import Foundation
import Testing
import WaymarkTestSupport

/// A fleet's api node (`waymark serve --fleet --role api`, docs/fleet.md "API and web page")
/// end to end: real PostgreSQL/PostGIS and NATS, an ingest node and a worker fed three phones'
/// OwnTracks locations, and the single daemon's API read back over the api node's TCP port
/// with its token, compared with what PostgreSQL holds.
@Suite(.serialized) struct FleetAPITests {
    /// An api node of `rig`'s fleet listening on a free loopback port with a token.
    struct APINode {
        let process: BackgroundProcess
        let port: Int
        let token: String

        static func start(_ rig: FleetTests.Rig) async throws -> APINode {
            let token = "fleet-api-test-token"
            let tokenFile = try rig.directory.writeSecret("api-token", token + "\n")
            let port = try freeLoopbackPort()
            let process = try rig.node([
                "--role", "api", "--name", "api-1", "--socket", rig.directory.path("api.sock"), "--tcp-port", "\(port)",
                "--token-file", tokenFile,
            ])
            let listening = try await BackgroundProcess.waitUntil(timeout: 60) { loopbackAccepts(port: port) }
            try #require(listening, "the api node never listened: \(process.stderr.suffix(2000))")
            return APINode(process: process, port: port, token: token)
        }

        /// (status, body) of a request with the token.
        func request(_ path: String, _ arguments: [String] = []) async throws -> (status: Int, body: String) {
            let result = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/curl"),
                ["--silent", "--max-time", "60", "--write-out", "\n%{http_code}", "-H", "Authorization: Bearer \(token)"] + arguments
                    + ["http://127.0.0.1:\(port)\(path)"])
            var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let status = Int(lines.popLast() ?? "") ?? -1
            return (status, lines.joined(separator: "\n"))
        }

        func json(_ path: String, _ arguments: [String] = []) async throws -> [String: Any] {
            let (status, body) = try await request(path, arguments)
            try #require(status == 200, "\(path): \(status) \(body)")
            return try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(path): \(body)")
        }

        func errorCode(_ path: String, _ arguments: [String] = []) async throws -> (status: Int, code: String?) {
            let (status, body) = try await request(path, arguments)
            let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
            return (status, (object?["error"] as? [String: Any])?["code"] as? String)
        }
    }

    /// Runs `body` with a fleet of one ingest node, one worker (two partitions) and an api
    /// node, then stops them all; every node must exit 0.
    static func withAPINode(_ body: (FleetTests.Rig, APINode) async throws -> Void) async throws {
        let rig = try await FleetTests.Rig.start(workers: 1, partitions: 2)
        var api: APINode?
        do {
            let node = try await APINode.start(rig)
            api = node
            try await body(rig, node)
        } catch {
            api?.process.send(SIGTERM)
            try? await rig.stop()
            throw error
        }
        if let api {
            api.process.send(SIGTERM)
            #expect(try await api.process.wait(timeout: 30) == 0, "the api node did not stop cleanly: \(api.process.stderr.suffix(1500))")
        }
        try await rig.stop()
    }

    @Test func theAPINodeServesTheFleetsDevicesRegionsHistoryAndStream() async throws {
        try await Self.withAPINode { rig, node in
            // The stream, followed from before the phones send anything.
            let stream = try BackgroundProcess(
                URL(fileURLWithPath: "/usr/bin/curl"),
                ["--silent", "--no-buffer", "--max-time", "90", "-H", "Authorization: Bearer \(node.token)", "http://127.0.0.1:\(node.port)/v1/stream"])
            try await Task.sleep(for: .seconds(1))

            let fed = try await rig.feed()
            try await rig.waitForFixes(fed.fixes)
            try await rig.expectEveryEventPublishedOnce()

            // Status: a fleet, each device with its latest fix, the fleet's counts.
            let status = try await node.json("/v1/status")
            #expect((status["source"] as? [String: Any])?["kind"] as? String == "fleet", "\(status)")
            let counters = status["counters"] as? [String: Int] ?? [:]
            #expect(counters["fixesRecorded"] == fed.fixes)
            #expect(counters["eventsRecorded"].map(String.init) == (try await rig.sql("SELECT count(*) FROM events")).first)
            #expect(status["regionCount"] as? Int == 5)
            let activity = status["devices"] as? [[String: Any]] ?? []
            #expect(Set(activity.compactMap { $0["device"] as? String }) == ["bike.1", "bike-2", "walker"], "\(activity)")
            #expect(activity.allSatisfy { $0["lastFix"] is [String: Any] })

            // The api node heartbeats like the other nodes: `fleet status` lists it.
            let nodes = try await rig.status()["nodes"] as? [[String: Any]] ?? []
            #expect(nodes.contains { $0["name"] as? String == "api-1" && $0["role"] as? String == "api" && $0["alive"] as? Bool == true }, "\(nodes)")

            // Devices: the three moved in, and one added through the API.
            let devices = try await node.json("/v1/devices")["devices"] as? [[String: Any]] ?? []
            #expect(devices.compactMap { $0["name"] as? String } == ["bike-2", "bike.1", "walker"], "\(devices)")
            let added = try await node.request("/v1/devices", ["-X", "POST", "-H", "Content-Type: application/json", "--data", #"{"name":"scooter"}"#])
            #expect(added.status == 201 && added.body.contains(#""secret""#), "\(added)")
            #expect(try await rig.sql("SELECT name FROM devices WHERE name = 'scooter'") == ["scooter"])

            // History: every fix and event of a device, as PostgreSQL holds them, in the daemon's shapes.
            let history = try await node.json("/v1/history?device=walker")["items"] as? [[String: Any]] ?? []
            let fixes = history.filter { $0["kind"] as? String == "fix" }
            #expect(fixes.count == fed.fixes / 3)
            #expect(fixes.allSatisfy { $0["device"] as? String == "walker" && $0["source"] as? String == "network" })
            let events = history.filter { $0["kind"] as? String != "fix" }
            #expect(events.count.description == (try await rig.sql("SELECT count(*) FROM events WHERE device = 'walker'")).first)
            #expect(events.contains { $0["kind"] as? String == "region" && $0["transition"] as? String == "enter" }, "\(events.prefix(5))")

            // Last fix and region state per device; a fleet has no `local`.
            let last = try await node.json("/v1/fixes/last?device=bike.1")
            let newest = try await rig.sql("SELECT to_char(max(time) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM fixes WHERE device = 'bike.1'")
            #expect([last["time"] as? String] == newest.map { Optional($0) }, "\(last) \(newest)")
            #expect(try await node.errorCode("/v1/fixes/last") == (404, "no-device"))
            for row in try await rig.sql("SELECT region, inside FROM region_state WHERE device = 'walker' ORDER BY region") {
                let parts = row.split(separator: "|").map(String.init)
                let state = try await node.json("/v1/regions/\(parts[0])/state?device=walker")
                #expect(state["state"] as? String == (parts[1] == "t" ? "inside" : "outside"), "\(parts[0]): \(state)")
            }

            // Regions: an import through the API reaches the workers as `fleet import` does.
            let version = Int(try await rig.sql("SELECT max(regions_version) FROM fleet_nodes WHERE role = 'worker'").first ?? "") ?? -1
            let pond = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"pond","geometry":{"type":"Point","coordinates":[8.68,47.36]},"properties":{"radius":80}}]}"#
            let imported = try await node.request("/v1/regions", ["-X", "POST", "-H", "Content-Type: application/geo+json", "--data", pond])
            #expect(imported.status == 201 && imported.body.contains(#""inserted":["pond"]"#), "\(imported)")
            let reached = try await BackgroundProcess.waitUntil(timeout: 10) {
                try await rig.sql("SELECT count(*) FROM fleet_nodes WHERE role = 'worker' AND regions_version > \(version)") == ["1"]
            }
            #expect(reached, "the worker never took the regions imported through the API")
            #expect(try await node.errorCode("/v1/regions", ["-X", "POST", "-H", "Content-Type: application/geo+json", "--data", pond]) == (409, "store.duplicate-identifier"))
            #expect(try await node.request("/v1/regions/pond", ["-X", "DELETE"]).status == 204)
            #expect(try await rig.sql("SELECT count(*) FROM regions") == ["5"])

            // Export through the daemon's export code.
            let gpx = try await node.request("/v1/export?format=gpx&device=walker")
            #expect(gpx.status == 200 && gpx.body.components(separatedBy: "<trkpt ").count - 1 == fed.fixes / 3, "\(gpx.body.prefix(300))")

            // Outputs: defined in PostgreSQL, where output nodes take them from; tested from the api node.
            let hub = try await node.request("/v1/outputs", ["-X", "POST", "-H", "Content-Type: application/json", "--data", #"{"name":"hub","url":"http://127.0.0.1:9/w"}"#])
            #expect(hub.status == 201 && hub.body.contains(#""secret""#), "\(hub)")
            #expect(try await rig.sql("SELECT name, kind, url FROM outputs") == ["hub|webhook|http://127.0.0.1:9/w"])
            let outputs = try await node.json("/v1/outputs")["outputs"] as? [[String: Any]] ?? []
            #expect(outputs.compactMap { $0["name"] as? String } == ["hub"], "\(outputs)")
            let test = try await node.json("/v1/outputs/hub/test", ["-X", "POST"])
            #expect(test["delivered"] as? Bool == false, "nothing listens on port 9: \(test)")
            #expect(try await node.errorCode("/v1/outputs/hub/retry", ["-X", "POST"]) == (501, "not-in-fleet"))
            #expect(try await node.request("/v1/outputs/hub", ["-X", "DELETE"]).status == 204)
            #expect(try await rig.sql("SELECT count(*) FROM outputs") == ["0"])

            // What stays single-daemon-only says so.
            #expect(try await node.errorCode("/v1/power") == (501, "not-in-fleet"))
            #expect(try await node.errorCode("/v1/handlers/reload", ["-X", "POST"]) == (501, "not-in-fleet"))
            #expect(try await node.errorCode("/v1/imports?device=walker", ["-X", "POST", "--data-binary", "@" + ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path]) == (501, "not-in-fleet"))
            #expect(try await node.errorCode("/v1/imports") == (501, "not-in-fleet"))

            // The stream carried the fixes and the events as they crossed the bus.
            let lines = stream.stdout.split(separator: "\n").filter { $0.hasPrefix("data: ") }
            #expect(lines.contains { $0.contains(#""kind":"fix""#) && $0.contains(#""device":"walker""#) }, "\(stream.stdout.prefix(500))")
            #expect(lines.contains { $0.contains(#""kind":"region""#) }, "\(stream.stdout.prefix(500))")
            stream.send(SIGTERM)
        }
    }
}
