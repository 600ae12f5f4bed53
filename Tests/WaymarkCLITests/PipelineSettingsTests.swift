import Foundation
import Testing
import WaymarkTestSupport

/// One `PipelineSettings` for every entry point (docs/configuration.md, "Pipeline settings"):
/// `replay`, `export`, `bench export` and `serve` read `regions.crossing_gap`,
/// `regions.activity` and `silence.*` from the same keys of a configuration file and from the same flags, and
/// each changes what they report. (The fleet's workers: `WorkerPipelineSettingsTests`.)
@Suite struct PipelineSettingsTests {
    /// The crossing gap lifted: the Jura is "crossed" between two trips months apart (`CrossingGapTests`).
    static let liftedGap = "regions:\n  crossing_gap: 100000000\n"
    /// A cyclist's speed bound in front of the region engine.
    static let cycling = "regions:\n  activity: fitness\n"

    /// A car: 300 m every 10 s (30 m/s) through a 1.5 km circle, "bridge".
    static func drive(in directory: TemporaryDirectory) throws -> (track: String, regions: String) {
        let points = (0..<20).map { step in
            String(format: "<trkpt lat=\"47.99\" lon=\"%.3f\"><time>2024-06-01T09:%02d:%02dZ</time></trkpt>\n", 7.80 + 0.004 * Double(step), step * 10 / 60, step * 10 % 60)
        }
        let gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><trkseg>\n"
            + points.joined() + "</trkseg></trk></gpx>\n"
        let regions = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"bridge","geometry":{"type":"Point","coordinates":[7.832,47.99]},"properties":{"radius":1500}}
            ]}
            """
        return (try directory.write("drive.gpx", gpx), try directory.write("bridge.geojson", regions))
    }

    private func succeeded(_ arguments: [String]) async throws -> ProcessResult {
        let result = try await runWaymark(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    @Test func replayReadsTheKeysFromConfigAndTheFlagsWin() async throws {
        let directory = try TemporaryDirectory()
        let (logger, places) = try CrossingGapTests.files(in: directory)
        let (drive, bridge) = try Self.drive(in: directory)
        let lifted = try directory.write("lifted.yaml", Self.liftedGap)
        let cycling = try directory.write("cycling.yaml", Self.cycling)
        /// Replay's records of `region` for `track`.
        func records(_ track: String, _ regions: String, _ extra: [String], region: String) async throws -> Int {
            try await succeeded(["replay", track, "--regions", regions, "--fast"] + extra).stdoutLines
                .filter { $0.contains("\"region\":\"\(region)\"") }.count
        }
        #expect(try await records(logger, places, [], region: "jura") == 0)
        #expect(try await records(logger, places, ["--config", lifted], region: "jura") == 2)
        #expect(try await records(logger, places, ["--config", lifted, "--crossing-gap", "300"], region: "jura") == 0)
        #expect(try await records(drive, bridge, [], region: "bridge") == 2)
        #expect(try await records(drive, bridge, ["--config", cycling], region: "bridge") == 0)
        #expect(try await records(drive, bridge, ["--region-activity", "fitness"], region: "bridge") == 0)
    }

    @Test func exportReadsTheSameKeysAndFlags() async throws {
        let directory = try TemporaryDirectory()
        let (logger, places) = try CrossingGapTests.files(in: directory)
        let lifted = try directory.write("lifted.yaml", Self.liftedGap)
        func waypoints(_ arguments: [String], named name: String) async throws -> Int {
            try await succeeded(["export"] + arguments + ["--format", "gpx", "-o", "-"]).stdout.components(separatedBy: "<name>\(name)</name>").count - 1
        }
        #expect(try await waypoints([logger, "--regions", places], named: "Enter jura") == 0)
        #expect(try await waypoints([logger, "--regions", places, "--config", lifted], named: "Enter jura") == 1)
        #expect(try await waypoints([logger, "--regions", places, "--crossing-gap", "100000000"], named: "Enter jura") == 1)

        let (drive, bridge) = try Self.drive(in: directory)
        #expect(try await waypoints([drive, "--regions", bridge], named: "Enter bridge") == 1)
        #expect(try await waypoints([drive, "--regions", bridge, "--region-activity", "fitness"], named: "Enter bridge") == 0)
    }

    /// The silence rule (`silence.threshold`): export (and stats) split the first trip, whose fixes are two
    /// minutes apart at one point, where a 60 s threshold sees a silence ended 1.2 km away.
    @Test func exportSplitsSegmentsByTheSilenceRuleOfTheSettings() async throws {
        let directory = try TemporaryDirectory()
        let (logger, _) = try CrossingGapTests.files(in: directory)
        let impatient = try directory.write("impatient.yaml", "silence:\n  threshold: 60\n")
        func segments(_ extra: [String]) async throws -> Int {
            try await succeeded(["export", logger, "--format", "gpx", "-o", "-"] + extra).stdout.components(separatedBy: "<trkseg>").count - 1
        }
        #expect(try await segments([]) == 2)
        #expect(try await segments(["--config", impatient]) == 3)
        #expect(try await segments(["--silence-threshold", "60"]) == 3)
        // `waymark stats` counts the segments export writes.
        let stats = try await succeeded(["stats", logger, "--json", "--config", impatient]).stdout
        #expect(stats.contains("\"segments\":3"), "\(stats)")
    }

    @Test func benchExportRunsTheSameSettings() async throws {
        let directory = try TemporaryDirectory()
        let (logger, places) = try CrossingGapTests.files(in: directory)
        let lifted = try directory.write("lifted.yaml", Self.liftedGap)
        let cycling = try directory.write("cycling.yaml", Self.cycling)
        let (drive, bridge) = try Self.drive(in: directory)
        func events(_ arguments: [String]) async throws -> Int? {
            let line = try await succeeded(["bench", "export"] + arguments + ["--format", "gpx", "--repeat", "1"]).stdout
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["events"] as? Int
        }
        // Two significant changes and the chapel's crossing; lifted, the Jura's too.
        #expect(try await events([logger, "--regions", places]) == 4)
        #expect(try await events([logger, "--regions", places, "--config", lifted]) == 6)
        let driven = try #require(try await events([drive, "--regions", bridge]))
        #expect(try await events([drive, "--regions", bridge, "--config", cycling]) == driven - 2)
    }

    @Test func theDaemonRecordsWithTheSameKeysAndFlags() async throws {
        let directory = try TemporaryDirectory()
        let (logger, places) = try CrossingGapTests.files(in: directory)
        let lifted = try directory.write("lifted.yaml", Self.liftedGap)
        let (drive, bridge) = try Self.drive(in: directory)
        var run = 0
        func recorded(_ track: String, _ regions: String, _ extra: [String], region: String) async throws -> Int {
            run += 1
            let db = directory.path("w\(run).sqlite")
            _ = try await succeeded(
                ["serve", "--replay", track, "--regions", regions, "--fast", "--exit-after-replay", "--db", db, "--socket", directory.path("api\(run).sock")]
                    + extra)
            return try await succeeded(["history", "--db", db, "--kind", "event"]).stdoutLines.filter { $0.contains("\"region\":\"\(region)\"") }.count
        }
        #expect(try await recorded(logger, places, [], region: "jura") == 0)
        #expect(try await recorded(logger, places, ["--config", lifted], region: "jura") == 2)
        #expect(try await recorded(drive, bridge, [], region: "bridge") == 2)
        #expect(try await recorded(drive, bridge, ["--region-activity", "fitness"], region: "bridge") == 0)
    }

    @Test func aTypoInAPipelineSectionIsRefusedAtItsPlaceAndTheDaemonsOtherKeysArePassedOver() async throws {
        let directory = try TemporaryDirectory()
        let (logger, places) = try CrossingGapTests.files(in: directory)
        let typo = try directory.write("typo.yaml", "store:\n  database: elsewhere.sqlite\nregions:\n  paths: [x.geojson]\n  crossing_gpa: 60\n")
        let result = try await runWaymark(["replay", logger, "--regions", places, "--fast", "--config", typo])
        #expect(result.status != 0)
        #expect(result.stderr.contains("typo.yaml:5:3: regions.crossing_gpa: unknown key"), "\(result.stderr)")
        // A fleet worker reads the same keys from its --config, before it connects to anything.
        let worker = try await runWaymark(["serve", "--fleet", "--role", "worker", "--config", typo])
        #expect(worker.status != 0)
        #expect(worker.stderr.contains("typo.yaml:5:3: regions.crossing_gpa: unknown key"), "\(worker.stderr)")
        let daemons = try directory.write(
            "daemon.yaml", "store:\n  database: elsewhere.sqlite\nsubscriptions:\n  ride: { visits: true }\nregions:\n  paths: [x.geojson]\n  crossing_gap: 100000000\n")
        let replayed = try await succeeded(["replay", logger, "--regions", places, "--fast", "--config", daemons])
        #expect(replayed.stdoutLines.filter { $0.contains("\"region\":\"jura\"") }.count == 2)
    }
}
