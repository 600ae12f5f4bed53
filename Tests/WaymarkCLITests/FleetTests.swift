import Foundation
import Testing
import WaymarkTestSupport

/// Fleet mode end to end (docs/fleet.md): real PostgreSQL/PostGIS and nats-server (started by
/// scripts/fleet-up.sh), real `waymark serve --fleet` processes, phones played by
/// Tests/Fleet/feed_owntracks.py over HTTP. What the fleet stored is read back with psql and
/// compared with what the single engine (`waymark replay`) makes of the same track.
@Suite(.serialized) struct FleetTests {
    static let track = ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path
    static let regions = ProjectPaths.repositoryRoot.appendingPathComponent("Regions/lakeside.geojson").path
    static let feeder = ProjectPaths.repositoryRoot.appendingPathComponent("Tests/Fleet/feed_owntracks.py").path

    /// Servers, a single daemon's store moved into the fleet (regions and three devices), an
    /// ingest node and workers.
    struct Rig {
        let servers: FleetServers
        let directory: TemporaryDirectory
        let devices: [(name: String, secret: String)]
        let ingestPort: Int
        var ingest: BackgroundProcess?
        var workers: [String: BackgroundProcess] = [:]

        static func start(workers count: Int, partitions: Int = 4) async throws -> Rig {
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
                var rig = Rig(servers: servers, directory: directory, devices: devices, ingestPort: try freeLoopbackPort())
                let imported = try await rig.waymark(["fleet", "import", "--db", db])
                #expect(imported.stdout.contains("imported 5 regions and 3 devices"), "\(imported.stdout)\(imported.stderr)")
                rig.ingest = try rig.node(["--role", "ingest", "--name", "ingest-1", "--partitions", "\(partitions)", "--listen", "127.0.0.1:\(rig.ingestPort)"])
                for index in 1...count { try rig.startWorker("worker-\(index)") }
                let port = rig.ingestPort
                let listening = try await BackgroundProcess.waitUntil(timeout: 60) { loopbackAccepts(port: port) }
                try #require(listening, "the ingest node never listened: \(rig.ingest?.stderr.suffix(2000) ?? "")")
                let spread = try await BackgroundProcess.waitUntil(timeout: 60) {
                    try await rig.owners().count == partitions
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

        func feed(_ arguments: [String] = []) async throws -> [String: Any] {
            let pairs = devices.map { "\($0.name):\($0.secret)" }
            let result = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/python3"), [FleetTests.feeder, "http://127.0.0.1:\(ingestPort)", FleetTests.track] + pairs + arguments)
            #expect(result.status == 0, "feeder: \(result.stdout)\(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
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
            var processes = Array(workers.values)
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
    static func singleEngineTransitions() async throws -> [String] {
        let replay = try await runWaymark(["replay", track, "--regions", regions])
        try #require(replay.status == 0, "\(replay.stderr)")
        return replay.stdoutLines.filter { $0.contains(#""kind":"region""#) || $0.contains(#""kind":"state""#) }
    }

    @Test func everyFixIsStoredOnceAndEveryTransitionMatchesTheSingleEngine() async throws {
        let rig = try await Rig.start(workers: 2)
        do {
            let owners = Set(try await rig.owners().values)
            #expect(owners == ["worker-1", "worker-2"], "two workers share the partitions")
            let fed = try await rig.feed()
            let total = try #require(fed["fixes"] as? Int)
            #expect(total == 3 * 2974)
            try await rig.waitForFixes(total)
            let distinct = try await rig.sql("SELECT count(DISTINCT (device, time)) FROM fixes")
            #expect(distinct == ["\(total)"], "every fix once")
            let expected = try await Self.singleEngineTransitions()
            #expect(expected.count > 10)
            for device in rig.devices {
                let records = try await rig.sql(
                    "SELECT record FROM events WHERE device = '\(device.name)' AND kind IN ('region', 'state') ORDER BY sequence, split_part(id, '/', 3)::int")
                #expect(records == expected, "\(device.name)'s transitions differ from the single engine's")
            }
        } catch {
            try? await rig.stop()
            throw error
        }
        try await rig.stop()
    }
}
