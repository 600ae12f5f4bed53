import Foundation
import Testing
import WaymarkTestSupport

/// `waymark timeline` as a user runs it: a new user's default store, a simulated morning (home,
/// a walk to a café and back) imported, its day as lines and as JSON, `--compare` against a small
/// hand-written Google Semantic Location History, and each refusal naming its flag.
@Suite struct TimelineCommandTests {
    /// A new user's HOME, and no place data (names are coordinates, times UTC), so the lines do
    /// not depend on what the machine has installed.
    struct Session {
        let directory: TemporaryDirectory
        let environment: [String: String]

        init() throws {
            directory = try TemporaryDirectory()
            let home = directory.path("home")
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
            var environment = ProcessInfo.processInfo.environment
            for key in ["XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "WAYMARK_LOG_LEVEL"] { environment[key] = nil }
            environment["HOME"] = home
            environment["WAYMARK_PLACE_DATA"] = directory.path("no-place-data.bin")
            self.environment = environment
        }

        func waymark(_ arguments: [String]) async throws -> ProcessResult {
            try await runProcess(ProjectPaths.waymarkExecutable, arguments, environment: environment, currentDirectory: ProjectPaths.repositoryRoot)
        }

        /// 20 min at home, a 530 m walk to the café, 30 min there, back, 15 min at home; a fix every
        /// 10 s with 5 m of wandering error; imported as the device `phone` into the default store.
        func importMorning() async throws {
            let track = directory.path("morning.gpx")
            let simulated = try await waymark([
                "simulate", "--waypoint", "52.4006,13.0385", "--waypoint", "52.4040,13.0440", "--waypoint", "52.4006,13.0385",
                "--waypoint", "52.400614,13.0385", "--speed", "1.4", "--interval", "10", "--noise", "5", "--stop", "0:1200",
                "--stop", "1:1800", "--stop", "2:900", "--start", "2026-06-01T06:00:00Z", "--seed", "5", "-o", track,
            ])
            try #require(simulated.status == 0, "\(simulated.stderr)")
            let imported = try await waymark(["import", track, "--device", "phone"])
            try #require(imported.status == 0, "\(imported.stderr)")
        }
    }

    /// The day's lines: a date, each stay and trip with its times; the last stay still open.
    /// Coordinates stand for names without place data; the segmenter's centres are matched
    /// loosely (within ~20 m), times to the minute.
    @Test func aKnownDayReadsAsLines() async throws {
        let session = try Session()
        try await session.importMorning()
        let day = try await session.waymark(["timeline", "--device", "phone", "--day", "2026-06-01"])
        try #require(day.status == 0, "\(day.stderr)")
        let expected = [
            #"^Monday 1 June 2026$"#,
            #"^06:00–06:2[01]  52\.400[56]\d, 13\.038[45]\d$"#,
            #"^06:2[01]–06:2[56]  Walking 4\d\d m \([56] min\) → 52\.40(39|40)\d, 13\.04(39|40)\d$"#,
            #"^06:2[56]–06:5[67]  52\.40(39|40)\d, 13\.04(39|40)\d$"#,
            #"^06:5[67]–07:0[234]  Walking 4\d\d m \([56] min\) → 52\.400[56]\d, 13\.038[45]\d$"#,
            #"^since 07:0[234]  52\.400[56]\d, 13\.038[45]\d$"#,
        ]
        try #require(day.stdoutLines.count == expected.count, "\(day.stdout)")
        for (line, pattern) in zip(day.stdoutLines, expected) {
            #expect(line.range(of: pattern, options: .regularExpression) != nil, "\(line) !~ \(pattern)")
        }
        let latest = try await session.waymark(["timeline", "--device", "phone"])
        let stays = { (lines: [String]) in lines.filter { !$0.contains("→") } }
        #expect(stays(latest.stdoutLines) == stays(day.stdoutLines), "without a range: the latest day with history")
    }

    /// Recomputing gives the same stays and trips (issue 41): the first run computes and stores
    /// them, later runs read the stored ones and resume after the last stored stay; the JSON, at
    /// full precision, is the same each time.
    @Test func askingAgainGivesTheSameLines() async throws {
        let session = try Session()
        try await session.importMorning()
        let arguments = ["timeline", "--device", "phone", "--day", "2026-06-01"]
        let first = try await session.waymark(arguments)
        let firstJSON = try await session.waymark(arguments + ["--json"])
        let second = try await session.waymark(arguments)
        let secondJSON = try await session.waymark(arguments + ["--json"])
        #expect(first.status == 0 && second.status == 0 && firstJSON.status == 0 && secondJSON.status == 0)
        #expect(second.stdout == first.stdout)
        #expect(secondJSON.stdout == firstJSON.stdout)
        #expect(first.stdout.contains("→"), "the morning has trips: \(first.stdout)")
    }

    @Test func jsonIsTheTimelinesObject() async throws {
        let session = try Session()
        try await session.importMorning()
        let result = try await session.waymark(["timeline", "--device", "phone", "--from", "2026-06-01T06:10:00Z", "--to", "2026-06-01T07:00:00Z", "--json"])
        try #require(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["device"] as? String == "phone")
        #expect(object["from"] as? String == "2026-06-01T06:10:00Z")
        #expect(object["timeZone"] as? String == "UTC")
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.compactMap { $0["kind"] as? String } == ["stay", "trip", "stay", "trip"], "\(result.stdout)")
        #expect(entries.compactMap { $0["mode"] as? String } == ["walking", "walking"])
    }

    /// The hand-written labels: home and the café right (to the minute, as a person writes them),
    /// a bakery Google imagined (1.5 km away) that Waymark rightly did not find, and no label
    /// for the return home, which Waymark found: 2 of 3 on each side.
    static let labels = """
        {"timelineObjects": [
          {"placeVisit": {"location": {"latitudeE7": 524006000, "longitudeE7": 130385000, "name": "Home", "semanticType": "TYPE_HOME"},
            "duration": {"startTimestamp": "2026-06-01T06:00:00Z", "endTimestamp": "2026-06-01T06:20:00Z"}}},
          {"activitySegment": {"startLocation": {"latitudeE7": 524006000, "longitudeE7": 130385000},
            "endLocation": {"latitudeE7": 524040000, "longitudeE7": 130440000},
            "duration": {"startTimestamp": "2026-06-01T06:20:00Z", "endTimestamp": "2026-06-01T06:26:00Z"}, "activityType": "WALKING"}},
          {"placeVisit": {"location": {"latitudeE7": 524040000, "longitudeE7": 130440000, "name": "Café Rosa"},
            "duration": {"startTimestamp": "2026-06-01T06:26:00Z", "endTimestamp": "2026-06-01T06:56:00Z"}}},
          {"placeVisit": {"location": {"latitudeE7": 524100000, "longitudeE7": 130600000, "name": "Bakery"},
            "duration": {"startTimestamp": "2026-06-01T06:40:00Z", "endTimestamp": "2026-06-01T06:45:00Z"}}}
        ]}
        """

    @Test func compareAgainstAnImportedSemanticLocationHistory() async throws {
        let session = try Session()
        try await session.importMorning()
        let labels = session.directory.path("2026_JUNE.json")
        try Self.labels.write(toFile: labels, atomically: true, encoding: .utf8)
        let imported = try await session.waymark(["import", labels, "--device", "phone"])
        try #require(imported.status == 0, "\(imported.stderr)")

        let json = try await session.waymark(["timeline", "--device", "phone", "--day", "2026-06-01", "--compare", "--json"])
        try #require(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["stays"] as? Int == 3 && object["reported"] as? Int == 3 && object["matched"] as? Int == 2, "\(json.stdout)")
        for figure in ["precision", "recall", "f1"] {
            #expect(abs((object[figure] as? Double ?? 0) - 2.0 / 3) < 1e-9, "\(figure): \(json.stdout)")
        }
        let arrival = try #require(object["medianArrivalError"] as? Double)
        let departure = try #require(object["medianDepartureError"] as? Double)
        #expect(arrival <= 90 && departure <= 90, "\(json.stdout)")
        let matches = try #require(object["matches"] as? [[String: Any]])
        #expect(matches.compactMap { $0["name"] as? String } == ["Home", "Café Rosa"])
        let missed = try #require(object["unmatchedReported"] as? [[String: Any]])
        #expect(missed.compactMap { $0["name"] as? String } == ["Bakery"])
        let extra = try #require(object["unmatchedStays"] as? [[String: Any]])
        #expect(extra.count == 1)
        let extraArrival = try #require(extra.first?["arrival"] as? String)
        #expect(extraArrival.hasPrefix("2026-06-01T07:0"), "the return home: \(extraArrival)")

        let text = try await session.waymark(["timeline", "--device", "phone", "--day", "2026-06-01", "--compare"])
        try #require(text.status == 0, "\(text.stderr)")
        let lines = text.stdoutLines
        #expect(lines.first == "Waymark's stays: 3; reported visits: 3; matched: 2 (times in UTC)", "\(text.stdout)")
        #expect(lines.contains("precision 0.67  recall 0.67  F1 0.67"), "\(text.stdout)")
        let missedAt = try #require(lines.firstIndex(of: "reported visits Waymark did not find:"), "\(text.stdout)")
        #expect(lines[missedAt...].dropFirst().first == "  Mon 1 Jun 06:40–06:45  Bakery")
        #expect(lines.contains("Waymark's stays not reported:"))
    }

    @Test(arguments: [
        (["--day", "2026-02-30"], "--day: '2026-02-30' is not a day"),
        (["--day", "yesterday"], "--day: 'yesterday' is not a day"),
        (["--day", "2026-06-01", "--from", "2026-06-01T00:00:00Z", "--to", "2026-06-02T00:00:00Z"], "--day: give either --day or --from and --to"),
        (["--from", "2026-06-02T00:00:00Z", "--to", "2026-06-01T00:00:00Z"], "--from 2026-06-02T00:00:00Z is not before --to"),
        (["--from", "2026-06-01T00:00:00Z"], "--to: missing"),
        (["--from", "June", "--to", "2026-06-01T00:00:00Z"], "--from: 'June' is not an RFC 3339 time"),
        (["--device", "ghost"], "--device: no device 'ghost'"),
        (["--device", "phone", "--day", "2026-06-01", "--compare"], "--compare: phone has no reported visits"),
    ])
    func refusalsNameTheirFlag(_ arguments: [String], _ message: String) async throws {
        let session = try Session()
        try await session.importMorning()
        let result = try await session.waymark(["timeline"] + arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// A range without history is no error: it says there is nothing, and --json has no entries.
    @Test func aRangeWithoutHistorySaysSo() async throws {
        let session = try Session()
        try await session.importMorning()
        let range = ["--device", "phone", "--from", "2026-06-02T00:00:00Z", "--to", "2026-06-03T00:00:00Z"]
        let text = try await session.waymark(["timeline"] + range)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "no stays or trips for phone from 2026-06-02T00:00:00Z to 2026-06-03T00:00:00Z\n")
        let json = try await session.waymark(["timeline", "--json"] + range)
        #expect(json.stdout.contains(#""entries":[]"#), "\(json.stdout)")
        let local = try await session.waymark(["timeline"])
        #expect(local.status != 0)
        #expect(local.stderr.contains("--device: local has no history yet"), "\(local.stderr)")
    }

    @Test func withoutAStoreItSaysWhere() async throws {
        let session = try Session()
        let result = try await session.waymark(["timeline"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("no database at "), "\(result.stderr)")
        #expect(result.stderr.contains("give --db"), "\(result.stderr)")
        let named = try await session.waymark(["timeline", "--db", session.directory.path("none.sqlite")])
        #expect(named.stderr.contains("none.sqlite"), "\(named.stderr)")
    }
}
