import Foundation
import Testing
import WaymarkTestSupport

/// `waymark replay` as a user runs it: the real executable, real files, its stdout and exit status.
@Suite struct ReplayCommandTests {
    /// Decodes JSON Lines into dictionaries.
    static func records(_ result: ProcessResult) throws -> [[String: Any]] {
        try result.stdoutLines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(line)")
        }
    }

    static func transitions(_ records: [[String: Any]]) -> [String] {
        records.filter { $0["kind"] as? String == "region" }.map {
            "\($0["transition"]!) \($0["region"]!) \($0["time"]!)"
        }
    }

    @Test func tcxtestEntersAndLeavesSantaMonicaMountainsOnly() async throws {
        let result = try await runWaymark([
            "replay", ProjectPaths.sharedData("gpx/tcxtest.gpx").path,
            "--regions", ProjectPaths.sharedData("geojson/ne_10m_parks_and_protected_lands_area.json").path,
            "--id-property", "unit_code",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try Self.records(result)
        #expect(Self.transitions(records) == ["enter SAMO 2008-08-21T13:57:20Z", "exit SAMO 2008-08-21T14:18:15Z"])
        let state = try #require(records.first)
        #expect(state["kind"] as? String == "state")
        #expect(state["inside"] as? [String] == [])
        let summary = try #require(records.last)
        #expect(summary["kind"] as? String == "summary")
        #expect(summary["fixes"] as? Int == 1202)
    }

    @Test func everyRecordHasKindTimeAndPosition() async throws {
        let result = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--regions", "Regions", "--fast"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try Self.records(result)
        for record in records.dropLast() {
            #expect(record["kind"] is String)
            let time = try #require(record["time"] as? String)
            #expect(time.hasSuffix("Z"))
            #expect(record["latitude"] is Double)
            #expect(record["longitude"] is Double)
        }
    }

    @Test func theSampleRideShowsEnterAndExitOutOfTheBox() async throws {
        let result = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--regions", "Regions/"])
        #expect(result.status == 0, "\(result.stderr)")
        let transitions = Self.transitions(try Self.records(result))
        for region in ["trailhead", "village", "hut", "reserve", "forest"] {
            #expect(transitions.contains { $0.hasPrefix("enter \(region) ") }, "no enter for \(region)")
            #expect(transitions.contains { $0.hasPrefix("exit \(region) ") }, "no exit for \(region)")
        }
    }

    @Test func anUntimedTrackReplaysWithNullTimesAndSaysSo() async throws {
        let result = try await runWaymark([
            "replay", ProjectPaths.sharedData("gpx/cerknicko-without-times.gpx").path, "--fast",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("have no time"))
        let summary = try #require(try Self.records(result).last)
        #expect(summary["untimedFixes"] as? Int == 291)
    }

    @Test func theDatabaseKeepsTheImportedRegionsForTheNextReplay() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("regions.sqlite")
        let first = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--regions", "Regions", "--db", db])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--db", db])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(first.stdout == second.stdout)
    }

    @Test func speedPacesTheReplayByTheTracksClock() async throws {
        // 20 fixes one second apart at 10× real time take about 1.9 s of wall time.
        let directory = try TemporaryDirectory()
        let track = directory.path("short.gpx")
        let made = try await runWaymark([
            "simulate", "--waypoint", "47.0,8.0", "--waypoint", "47.01,8.0", "--points", "20", "-o", track,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let start = Date()
        let result = try await runWaymark(["replay", track, "--speed", "10"])
        let elapsed = Date().timeIntervalSince(start)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(elapsed >= 1.8, "took \(elapsed) s")
    }

    @Test func helpDescribesEveryOption() async throws {
        let result = try await runWaymark(["replay", "--help"])
        #expect(result.status == 0)
        for option in ["--regions", "--id-property", "--fast", "--speed", "--db", "JSON Lines"] {
            #expect(result.stdout.contains(option), "help lacks \(option)")
        }
    }
}
