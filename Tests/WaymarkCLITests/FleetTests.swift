import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// Fleet mode end to end (docs/fleet.md): real PostgreSQL/PostGIS and nats-server (started by
/// scripts/fleet-up.sh), real `waymark serve --fleet` processes, phones played by
/// Tests/Fleet/feed_owntracks.py over HTTP. What the fleet stored is read back with psql and
/// compared with what the single engine (`waymark replay`) makes of the same track.
@Suite(.serialized) struct FleetTests {
    static let track = ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path
    static let regions = ProjectPaths.repositoryRoot.appendingPathComponent("Regions/lakeside.geojson").path
    static let feeder = ProjectPaths.repositoryRoot.appendingPathComponent("Tests/Fleet/feed_owntracks.py").path

    /// Servers, a single daemon's store moved into the fleet (regions, three devices and what
    /// `prepare` adds to it), an ingest node, workers and output nodes.
    struct Rig: Sendable {
        let servers: FleetServers
        let directory: TemporaryDirectory
        let devices: [(name: String, secret: String)]
        let ingestPort: Int
        var ingest: BackgroundProcess?
        var workers: [String: BackgroundProcess] = [:]
        var outputNodes: [String: BackgroundProcess] = [:]

        static func start(
            workers count: Int, partitions: Int = 4, outputNodes: Int = 0, prepare: (_ db: String) async throws -> Void = { _ in }
        ) async throws -> Rig {
            let servers = try await FleetServers.start()
            do {
                let directory = try TemporaryDirectory()
                let db = directory.path("single.sqlite")
                try #require(try await runWaymark(["regions", "import", FleetTests.regions, "--db", db]).status == 0)
                var devices: [(String, String)] = []
                for name in ["bike.1", "bike-2", "walker"] {
                    let added = try await runWaymark(["devices", "add", name, "--db", db])
                    devices.append((name, try #require(DevicesCommandTests.secret(in: added.stdout), "\(added.stderr)")))
                }
                try await prepare(db)
                var rig = Rig(servers: servers, directory: directory, devices: devices, ingestPort: try freeLoopbackPort())
                let imported = try await rig.waymark(["fleet", "import", "--db", db])
                #expect(imported.stdout.contains(" regions, 3 devices and "), "\(imported.stdout)\(imported.stderr)")
                #expect(try await rig.sql("SELECT count(*) FROM regions").first.flatMap { Int($0) } ?? 0 >= 5)
                rig.ingest = try rig.node(["--role", "ingest", "--name", "ingest-1", "--partitions", "\(partitions)", "--listen", "127.0.0.1:\(rig.ingestPort)"])
                for index in 1...count { try rig.startWorker("worker-\(index)") }
                for index in stride(from: 1, through: outputNodes, by: 1) {
                    rig.outputNodes["output-\(index)"] = try rig.node(["--role", "output", "--name", "output-\(index)"])
                }
                let port = rig.ingestPort
                let listening = try await BackgroundProcess.waitUntil(timeout: 60) { loopbackAccepts(port: port) }
                try #require(listening, "the ingest node never listened: \(rig.ingest?.stderr.suffix(2000) ?? "")")
                // All owned, and by every worker: a worker that starts first takes them all, and
                // gives some back once the others are seen.
                let spread = try await BackgroundProcess.waitUntil(timeout: 60) {
                    let owners = try await rig.owners()
                    return owners.count == partitions && Set(owners.values).count == count
                }
                if !spread {
                    let status = try await rig.status()
                    Issue.record("the partitions were never all owned: \(status)")
                    throw CancellationError()
                }
                return rig
            } catch {
                try? await servers.stop()
                throw error
            }
        }

        func node(_ arguments: [String]) throws -> BackgroundProcess {
            try BackgroundProcess(
                ProjectPaths.waymarkExecutable,
                ["serve", "--fleet", "--postgres", servers.postgresURL, "--nats", servers.natsURL] + arguments,
                currentDirectory: ProjectPaths.repositoryRoot)
        }

        mutating func startWorker(_ name: String) throws {
            workers[name] = try node(["--role", "worker", "--name", name])
        }

        func waymark(_ arguments: [String]) async throws -> ProcessResult {
            let result = try await runWaymark(arguments + ["--postgres", servers.postgresURL, "--nats", servers.natsURL])
            try #require(result.status == 0, "waymark \(arguments): \(result.stderr)")
            return result
        }

        func status() async throws -> [String: Any] {
            let result = try await waymark(["fleet", "status", "--json"])
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }

        /// Partition → the live worker that owns it.
        func owners() async throws -> [Int: String] {
            let partitions = try await status()["partitions"] as? [[String: Any]] ?? []
            var owners: [Int: String] = [:]
            for partition in partitions {
                if let owner = partition["owner"] as? String, let number = partition["partition"] as? Int { owners[number] = owner }
            }
            return owners
        }

        func sql(_ query: String) async throws -> [String] {
            let result = try await runProcess(URL(fileURLWithPath: "/usr/bin/psql"), [servers.postgresURL, "-Atc", query])
            try #require(result.status == 0, "psql: \(result.stderr)")
            return result.stdoutLines
        }

        /// What the feeder reports.
        struct Fed: Decodable, Sendable {
            var fixes: Int
            var requests: Int
            var seconds: Double
            var p50: Double?
            var p99: Double?
        }

        func feed(_ arguments: [String] = []) async throws -> Fed {
            let pairs = devices.map { "\($0.name):\($0.secret)" }
            let result = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/python3"), [FleetTests.feeder, "http://127.0.0.1:\(ingestPort)", FleetTests.track] + pairs + arguments)
            #expect(result.status == 0, "feeder: \(result.stdout)\(result.stderr)")
            return try JSONDecoder().decode(Fed.self, from: Data(result.stdout.utf8))
        }

        /// Messages in the events stream, from nats-server's monitoring endpoint.
        func eventsOnTheBus() async throws -> Int {
            let monitor = try #require(servers.environment["WAYMARK_NATS_MONITOR"])
            let result = try await runProcess(URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--max-time", "10", monitor + "/jsz?streams=true"])
            let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let accounts = root["account_details"] as? [[String: Any]] ?? []
            for stream in accounts.flatMap({ $0["stream_detail"] as? [[String: Any]] ?? [] }) where stream["name"] as? String == "WAYMARK_EVENTS" {
                return (stream["state"] as? [String: Any])?["messages"] as? Int ?? -1
            }
            return -1
        }

        /// Every committed event is on the bus, each once, and marked published.
        func expectEveryEventPublishedOnce() async throws {
            let committed = Int(try await sql("SELECT count(*) FROM events").first ?? "") ?? -1
            let published = try await BackgroundProcess.waitUntil(timeout: 30) {
                try await sql("SELECT count(*) FROM events WHERE NOT published") == ["0"]
            }
            #expect(published, "events committed and never published")
            let onTheBus = try await eventsOnTheBus()
            #expect(onTheBus == committed, "\(onTheBus) events on the bus for \(committed) committed")
        }

        /// Waits until the fleet has stored `count` fixes.
        func waitForFixes(_ count: Int, timeout: Double = 120) async throws {
            let stored = try await BackgroundProcess.waitUntil(timeout: timeout) {
                try await sql("SELECT count(*) FROM fixes").first == "\(count)"
            }
            if !stored {
                let (fixes, status) = (try await sql("SELECT count(*) FROM fixes"), try await status())
                Issue.record("stored \(fixes) of \(count) fixes; \(status)")
                throw CancellationError()
            }
        }

        /// SIGTERM to every node, then the servers stop. Nodes must exit 0.
        func stop() async throws {
            var processes = Array(workers.values) + Array(outputNodes.values)
            if let ingest { processes.append(ingest) }
            for process in processes where process.isRunning { process.send(SIGTERM) }
            for process in processes {
                let status = try await process.wait(timeout: 30)
                #expect(status == 0, "a node did not stop cleanly: \(process.stderr.suffix(1500))")
            }
            try await servers.stop()
        }
    }

    /// The region records `waymark replay` prints for the track: the single engine's answer.
    /// (The initial `state` is printed by replay, but recorded by neither runtime.)
    static func singleEngineTransitions() async throws -> [String] {
        let replay = try await runWaymark(["replay", track, "--regions", regions])
        try #require(replay.status == 0, "\(replay.stderr)")
        return replay.stdoutLines.filter { $0.contains(#""kind":"region""#) }
    }

    @Test func everyFixIsStoredOnceAndEveryTransitionMatchesTheSingleEngine() async throws {
        let rig = try await Rig.start(workers: 2)
        do {
            let owners = Set(try await rig.owners().values)
            #expect(owners == ["worker-1", "worker-2"], "two workers share the partitions")
            let fed = try await rig.feed()
            let total = fed.fixes
            #expect(total == 3 * 2974)
            try await rig.waitForFixes(total)
            let distinct = try await rig.sql("SELECT count(DISTINCT (device, time)) FROM fixes")
            #expect(distinct == ["\(total)"], "every fix once")
            let expected = try await Self.singleEngineTransitions()
            #expect(expected.count > 10)
            for device in rig.devices {
                let records = try await rig.sql(
                    "SELECT record FROM events WHERE device = '\(device.name)' AND kind = 'region' ORDER BY sequence, split_part(id, '/', 3)::int")
                #expect(records == expected, "\(device.name)'s transitions differ from the single engine's")
            }
            try await rig.expectEveryEventPublishedOnce()
        } catch {
            try? await rig.stop()
            throw error
        }
        try await rig.stop()
    }

    /// A worker SIGKILLed while devices send: its partitions move to the other worker once
    /// its lock is gone and it is no longer counted live, its last unacknowledged batch is
    /// redelivered after the ack wait, and nothing is lost or stored twice.
    @Test func aWorkerKilledMidStreamLosesNothing() async throws {
        var rig = try await Rig.start(workers: 2)
        do {
            let sender = rig
            let feeding = Task { try await sender.feed(["--batch", "10", "--pause", "0.03"]) }
            let started = try await BackgroundProcess.waitUntil(timeout: 60) {
                Int(try await rig.sql("SELECT count(*) FROM fixes").first ?? "") ?? 0 >= 1500
            }
            try #require(started, "the fleet stored no fixes")
            let victim = try #require(rig.workers["worker-1"])
            victim.send(SIGKILL)
            let killed = ContinuousClock.now
            rig.workers["worker-1"] = nil
            _ = try await victim.wait(timeout: 10)
            let moved = try await BackgroundProcess.waitUntil(timeout: 60) {
                try await Set(rig.owners().values) == ["worker-2"]
            }
            let movedAfter = ContinuousClock.now - killed
            #expect(moved, "the dead worker's partitions never moved")
            let total = try await feeding.value.fixes
            try await rig.waitForFixes(total)
            let caughtUp = ContinuousClock.now - killed
            #expect(try await rig.sql("SELECT count(DISTINCT (device, time)) FROM fixes") == ["\(total)"], "every fix once")
            let expected = try await Self.singleEngineTransitions().filter { $0.contains(#""kind":"region""#) }.map(PartitionTransition.init)
            for device in rig.devices {
                let records = try await rig.sql(
                    "SELECT record FROM events WHERE device = '\(device.name)' AND kind = 'region' ORDER BY sequence, split_part(id, '/', 3)::int")
                let got = records.map(PartitionTransition.init)
                #expect(got.map(\.what) == expected.map(\.what), "\(device.name): every transition once, in order")
                for (g, e) in zip(got, expected) where g.seconds != e.seconds {
                    // Only a crossing awaiting confirmation at the takeover may be confirmed later.
                    #expect(g.seconds > e.seconds && g.seconds - e.seconds < 60, "\(device.name): \(g) vs \(e)")
                }
            }
            try await rig.expectEveryEventPublishedOnce()
            let redelivered = try await rig.status()["partitions"] as? [[String: Any]] ?? []
            print(
                "fleet failover: partitions moved \(movedAfter) after SIGKILL; all \(total) fixes stored \(caughtUp) after it; "
                    + "redelivered \(redelivered.compactMap { $0["redelivered"] as? Int }.reduce(0, +))")
        } catch {
            try? await rig.stop()
            throw error
        }
        try await rig.stop()
    }

    /// `fleet import --regions` commits, notifies, and every worker has reloaded within a second.
    @Test func aRegionChangeReachesEveryWorkerWithinASecond() async throws {
        let rig = try await Rig.start(workers: 2)
        do {
            let file = try rig.directory.write(
                "pond.geojson",
                #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"pond","geometry":{"type":"Point","coordinates":[8.68,47.36]},"properties":{"radius":80}}]}"#)
            let imported = try await rig.waymark(["fleet", "import", "--regions", file])
            let began = ContinuousClock.now
            let version = try #require(imported.stdout.split(separator: " ").last.flatMap { Int($0.dropLast(2)) }, "\(imported.stdout)")
            let reached = try await BackgroundProcess.waitUntil(timeout: 10) {
                try await rig.sql("SELECT count(*) FROM fleet_nodes WHERE role = 'worker' AND regions_version >= \(version)") == ["2"]
            }
            let elapsed = ContinuousClock.now - began
            #expect(reached && elapsed < .seconds(1), "every worker had the new regions after \(elapsed)")
            #expect(try await rig.sql("SELECT round(ST_Area(geom::geography)) FROM regions WHERE identifier = 'pond'").first.flatMap(Double.init).map { abs($0 - .pi * 80 * 80) < 200 } == true, "PostGIS holds the circle as an 80 m buffer")
            let removed = try await runWaymark(["fleet", "import", "--postgres", rig.servers.postgresURL])
            #expect(removed.status != 0 && removed.stderr.contains("nothing to import"))
        } catch {
            try? await rig.stop()
            throw error
        }
        try await rig.stop()
    }

    /// What a phone says about itself (OwnTracks transitions, waypoints, cards, last wills)
    /// goes through the fleet in order with its fixes and is recorded as the single daemon
    /// records it (OwnTracksMessagesTests has the same records), and published as events; the
    /// phone is sent the fleet's regions as waypoints once, and again when they change.
    @Test func aPhonesOwnReportsAreRecordedInOrderWithItsFixes() async throws {
        let rig = try await Rig.start(workers: 1, partitions: 2)
        do {
            let walker = try #require(rig.devices.first { $0.name == "walker" })
            let now = Int(Date().timeIntervalSince1970) - 600
            let bodies = [
                #"{"_type":"location","lat":47.36,"lon":8.68,"tst":\#(now),"tid":"wa"}"#,
                #"{"_type":"transition","event":"enter","desc":"Plaza","rid":"plaza","lat":47.3,"lon":8.5,"tst":\#(now + 1),"wtst":1700000000,"acc":5,"t":"c","tid":"wa"}"#,
                #"{"_type":"waypoint","desc":"Home","lat":47.1,"lon":8.1,"rad":50,"tst":1700000000,"rid":"h0me"}"#,
                #"{"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"Office","lat":47.2,"lon":8.2,"rad":120,"tst":1700000100}]}"#,
                #"{"_type":"card","name":"Walker","face":"iVBORw0KGgo=","tid":"wa"}"#,
                #"[{"_type":"lwt","tst":1700000300},{"_type":"location","lat":47.361,"lon":8.681,"tst":\#(now + 30),"tid":"wa"}]"#,
            ]
            var replies: [String] = []
            for body in bodies {
                let sent = try await runProcess(
                    URL(fileURLWithPath: "/usr/bin/curl"),
                    ["--silent", "--show-error", "--write-out", "\\n%{http_code}", "-u", "walker:\(walker.secret)", "-H", "Content-Type: application/json",
                     "-H", "X-Limit-U: walker", "-H", "X-Limit-D: walker", "--data-binary", body, "http://127.0.0.1:\(rig.ingestPort)/v1/owntracks"])
                #expect(sent.stdoutLines.last == "200", "\(body): \(sent.stdout)\(sent.stderr)")
                replies.append(sent.stdoutLines.dropLast().joined(separator: "\n"))
            }
            // The fleet's regions as waypoints, the first time only (docs/devices.md).
            #expect(replies.first?.contains(#""action":"setWaypoints""#) == true, "\(replies)")
            for region in try await rig.sql("SELECT identifier FROM regions") {
                #expect(replies.first?.contains(#""rid":"\#(region)""#) == true, "\(region) in \(replies.first ?? "")")
            }
            // Later replies may steer the phone's mode (it sends no `m`), but its window holds
            // every region already: no waypoints again.
            #expect(replies.dropFirst().allSatisfy { !$0.contains("Waypoints") }, "\(replies)")
            try await rig.waitForFixes(2)
            let reported = try await BackgroundProcess.waitUntil(timeout: 30) {
                try await rig.sql("SELECT count(*) FROM events WHERE device = 'walker' AND kind LIKE 'reported%'") == ["5"]
            }
            #expect(reported, "five reports recorded")
            let records = try await rig.sql(
                "SELECT record FROM events WHERE device = 'walker' AND kind LIKE 'reported%' ORDER BY sequence, split_part(id, '/', 3)::int")
            let kinds = records.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["kind"] as? String }
            #expect(kinds == ["reportedRegion", "reportedWaypoint", "reportedWaypoint", "reportedCard", "reportedOffline"], "\(records)")
            let rfc3339 = { (seconds: Int) in Timestamp(secondsSince1970: Double(seconds)).rfc3339 }
            #expect(records.first?.hasPrefix(#"{"kind":"reportedRegion","transition":"enter","region":"plaza","time":"\#(rfc3339(now + 1))""#) == true, "\(records)")
            #expect(records.contains { $0.contains(#""region":"h0me","#) && $0.hasSuffix(#""created":"\#(rfc3339(1700000000))","description":"Home","latitude":47.1,"longitude":8.1,"radius":50}"#) }, "\(records)")
            #expect(records.contains { $0.contains(#""name":"Walker","trackerID":"wa"}"#) && !$0.contains("iVBOR") }, "\(records)")
            #expect(records.last?.hasSuffix(#""connectedAt":"\#(rfc3339(1700000300))"}"#) == true, "\(records)")
            try await rig.expectEveryEventPublishedOnce()
            // Sent again (a phone that did not hear the answer): stored once.
            let again = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/curl"),
                ["--silent", "-u", "walker:\(walker.secret)", "-H", "Content-Type: application/json", "-H", "X-Limit-U: walker", "-H", "X-Limit-D: walker",
                 "--data-binary", bodies[1], "http://127.0.0.1:\(rig.ingestPort)/v1/owntracks"])
            #expect(again.status == 0)
            try await Task.sleep(for: .seconds(2))
            #expect(try await rig.sql("SELECT count(*) FROM events WHERE device = 'walker' AND kind = 'reportedRegion'") == ["1"])
            // New regions: sent again, once.
            let file = try rig.directory.write(
                "pond.geojson",
                #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"pond","geometry":{"type":"Point","coordinates":[8.68,47.36]},"properties":{"radius":80}}]}"#)
            _ = try await rig.waymark(["fleet", "import", "--regions", file])
            var afterImport: [String] = []
            let resent = try await BackgroundProcess.waitUntil(timeout: 10) {
                let answer = try await runProcess(
                    URL(fileURLWithPath: "/usr/bin/curl"),
                    ["--silent", "-u", "walker:\(walker.secret)", "-H", "Content-Type: application/json", "-H", "X-Limit-U: walker",
                     "-H", "X-Limit-D: walker", "--data-binary", bodies[0], "http://127.0.0.1:\(rig.ingestPort)/v1/owntracks"])
                afterImport.append(answer.stdout)
                return answer.stdout.contains(#""rid":"pond""#)
            }
            #expect(resent, "\(afterImport)")
        } catch {
            try? await rig.stop()
            throw error
        }
        try await rig.stop()
    }

    /// `fleet import --db` moves a single daemon's history too, and importing it again
    /// stores nothing twice.
    @Test func aSingleDaemonsHistoryMovesIntoTheFleetOnce() async throws {
        let servers = try await FleetServers.start()
        do {
            let directory = try TemporaryDirectory()
            let db = directory.path("single.sqlite")
            let served = try await runWaymark(
                ["serve", "--replay", Self.track, "--regions", Self.regions, "--db", db, "--socket", directory.path("api.sock"),
                 "--gpsd", "127.0.0.1:9", "--exit-after-replay"])
            try #require(served.status == 0, "\(served.stderr)")
            let fixes = try await runWaymark(["history", "--db", db, "--kind", "fix"]).stdoutLines.count
            let events = try await runWaymark(["history", "--db", db, "--kind", "event"]).stdoutLines.count
            #expect(fixes == 2974 && events > 10, "\(fixes) fixes, \(events) events")
            for _ in 0..<2 {
                let imported = try await runWaymark(["fleet", "import", "--db", db, "--postgres", servers.postgresURL])
                #expect(imported.stdout.contains("with \(fixes) fixes and \(events) events of history"), "\(imported.stdout)\(imported.stderr)")
            }
            let stored = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/psql"),
                [servers.postgresURL, "-Atc", "SELECT (SELECT count(*) FROM fixes) || ' ' || (SELECT count(*) FROM events WHERE id LIKE 'import/%')"])
            #expect(stored.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(fixes) \(events)")
        } catch {
            try? await servers.stop()
            throw error
        }
        try await servers.stop()
    }

}

/// A region record's transition and region, and its time of day in seconds.
struct PartitionTransition: CustomStringConvertible {
    var what: String
    var seconds: Int

    init(_ record: String) {
        func member(_ name: String) -> String {
            guard let start = record.range(of: "\"\(name)\":\"") else { return "" }
            return String(record[start.upperBound...].prefix { $0 != "\"" })
        }
        what = member("transition") + " " + member("region")
        let clock = member("time").split(separator: "T").last?.prefix(8).split(separator: ":").compactMap { Int($0) } ?? []
        seconds = clock.count == 3 ? clock[0] * 3600 + clock[1] * 60 + clock[2] : -1
    }

    var description: String { "\(what) at \(seconds) s" }
}
