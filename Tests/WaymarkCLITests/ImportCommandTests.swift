import Foundation
import Testing
import WaymarkCore
import WaymarkImport
import WaymarkTestSupport

/// `waymark import` as a user runs it: a new user's default paths, every format's sample through
/// import and export compared with gpxpy, and a SIGKILL in the middle of a big import.
@Suite struct ImportCommandTests {
    @Test func aNewUsersImportGivesTheRegionEventsReplayPrints() async throws {
        let session = try FreshSession(.unset)
        let regions = try await session.waymark(["regions", "import", "Regions/lakeside.geojson"])
        try #require(regions.status == 0, "\(regions.stderr)")
        let imported = try await session.waymark(["import", "Tracks/lakeside-ride.gpx", "--device", "phone"])
        try #require(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("imported 2,974 new, 0 already present; "), "\(imported.stdout)")
        let again = try await session.waymark(["import", "Tracks/lakeside-ride.gpx", "--device", "phone"])
        #expect(again.stdout.hasPrefix("imported 0 new, 2,974 already present; 0 events computed; 1 file(s) imported before"), "\(again.stdout)")

        let history = try await session.waymark(["history", "--device", "phone", "--kind", "event"])
        let replay = try await session.waymark(["replay", "Tracks/lakeside-ride.gpx", "--regions", "Regions/lakeside.geojson"])
        try #require(replay.status == 0, "\(replay.stderr)")
        let stored = history.stdoutLines.filter { $0.hasPrefix(#"{"kind":"region""#) }.map { $0.replacingOccurrences(of: #","device":"phone","import":1}"#, with: "}") }
        let replayed = replay.stdoutLines.filter { $0.hasPrefix(#"{"kind":"region""#) }
        #expect(!replayed.isEmpty)
        #expect(stored == replayed)
        #expect(history.stdoutLines.allSatisfy { $0.hasSuffix(#","device":"phone","import":1}"#) }, "imported events say so")
    }

    /// A Takeout archive as Google delivers it: location history beside other products' files,
    /// which are skipped and listed; the semantic month's visits and activities kept as reported.
    /// Takeout offers .zip and .tgz.
    @Test(arguments: ["zip", "tgz"])
    func aTakeoutArchiveIsTakenAsItIs(_ kind: String) async throws {
        let directory = try TemporaryDirectory()
        let samples = ProjectPaths.repositoryRoot.appendingPathComponent("Tests/WaymarkImportTests/Samples/google").path
        let archive = directory.path("takeout-20261128T000000Z-001.\(kind)")
        let made = try await runPython(
            #"""
            import io, sys, tarfile, zipfile
            samples, archive = sys.argv[1], sys.argv[2]
            members = [
                ("Takeout/archive_browser.html", b"<html><body>Your Takeout</body></html>"),
                ("Takeout/Location History (Timeline)/Records.json", open(samples + "/Records.json", "rb").read()),
                ("Takeout/Location History (Timeline)/Semantic Location History/2021/2021_JUNE.json",
                 open(samples + "/Semantic-2021_JUNE.json", "rb").read()),
                ("Takeout/Location History (Timeline)/Settings.json", b'{"createdTime": "2021-01-01T00:00:00Z", "devices": []}'),
                ("Takeout/Fit/photo.png", b"\x89PNG\r\n\x1a\n" + bytes(64)),
            ]
            if archive.endswith(".zip"):
                with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
                    for name, data in members: z.writestr(name, data)
            else:
                with tarfile.open(archive, "w:gz", format=tarfile.GNU_FORMAT) as t:
                    for name, data in members:
                        info = tarfile.TarInfo(name)
                        info.size = len(data)
                        t.addfile(info, io.BytesIO(data))
            """#, [samples, archive])
        try #require(made.status == 0, "\(made.stderr)")
        let db = directory.path("w.sqlite")
        let imported = try await runWaymark(["import", archive, "--device", "phone", "--db", db, "--json"])
        try #require(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        let done = try #require(imported.stdoutLines.last)
        #expect(done.contains(#""state":"done""#), "\(done)")
        #expect(done.contains("archive_browser.html"), "\(done)")
        #expect(done.contains("Settings.json"), "\(done)")
        #expect(done.contains("photo.png"), "\(done)")
        #expect(!done.contains(#""reported":0"#), "\(done)")
        let reported = try await runWaymark(["history", "--db", db, "--device", "phone", "--kind", "event"])
        #expect(reported.stdout.contains(#""kind":"reportedVisit""#), "\(reported.stdout)")
        #expect(reported.stdout.contains(#""kind":"reportedActivity""#), "\(reported.stdout)")
    }

    /// Each format's sample: imported, exported as GPX from the store, read back with gpxpy,
    /// gives the reader's own fixes (each once, in time order).
    @Test(arguments: [
        "google/Records.json", "google/Semantic-2021_JUNE.json", "google/Timeline.json", "google/location-history.json",
        "google/Timeline Edits.json", "geojson/track.geojson", "geojson/overland.json", "google-earth-track.kml",
        "placemark-timestamps.kml", "garmin-activity.tcx", "fit/activity.fit", "csv/gpslogger.csv", "csv/european.csv",
        "owntracks/jane-phone-2023-11.rec",
    ])
    func eachFormatSurvivesImportAndExport(_ sample: String) async throws {
        let path = ProjectPaths.repositoryRoot.appendingPathComponent("Tests/WaymarkImportTests/Samples/\(sample)").path
        try await Self.roundTrip(path)
    }

    @Test func gpxAndNMEARoundTripToo() async throws {
        try await Self.roundTrip(ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path)
        let nmea = ProjectPaths.sharedData("nmea/gpsd-3.22/bt451.log").path
        if FileManager.default.fileExists(atPath: nmea) { try await Self.roundTrip(nmea) }
    }

    static let gpxPoints = #"""
        import gpxpy, sys
        g = gpxpy.parse(open(sys.argv[1]))
        for t in g.tracks:
            for s in t.segments:
                for p in s.points:
                    print("%.6f %.6f %s" % (p.latitude, p.longitude, p.time.strftime("%Y-%m-%dT%H:%M:%S")))
        """#

    static func roundTrip(_ path: String) async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let imported = try await runWaymark(["import", path, "--device", "rt", "--db", db])
        try #require(imported.status == 0, "\(path): \(imported.stdout)\(imported.stderr)")
        let output = directory.path("out.gpx")
        let export = try await runWaymark(["export", "--db", db, "--device", "rt", "--format", "gpx", "-o", output])
        try #require(export.status == 0, "\(path): \(export.stderr)")
        let exported = try await runPython(gpxPoints, [output])
        try #require(exported.status == 0, "\(exported.stderr)")
        let expected = try readerPoints(path)
        #expect(!expected.isEmpty, "\(path)")
        #expect(exported.stdoutLines == expected, "\(path)")
    }

    /// What the format's own reader gives, as gpxpy prints the export: each fix once, by time.
    static func readerPoints(_ path: String) throws -> [String] {
        var fixes: [Fix] = []
        for entry in try ImportSources.entries(for: [path]).entries {
            var opened = try entry.openReader()
            while let item = try opened.reader.next() { if case .fix(let fix) = item { fixes.append(fix) } }
        }
        var seen = Set<String>()
        return fixes.sorted { $0.time! < $1.time! }.compactMap { fix in
            let seconds = String(fix.time!.rfc3339.prefix(19))
            let line = String(format: "%.6f %.6f ", fix.coordinate.latitude, fix.coordinate.longitude) + seconds
            return seen.insert("\(fix.time!.nanosecondsSince1970) \(fix.coordinate.latitude) \(fix.coordinate.longitude)").inserted ? line : nil
        }
    }

    @Test func aTruncatedFileKeepsWhatWasReadSaysWhereAndExitsNonZero() async throws {
        let directory = try TemporaryDirectory()
        let sample = ProjectPaths.repositoryRoot.appendingPathComponent("Tests/WaymarkImportTests/Samples/google/Records.json").path
        let text = try String(contentsOfFile: sample, encoding: .utf8)
        // Cut inside the third location, after two complete ones.
        let cut = try directory.write("Records.json", String(text[..<text.range(of: #""type" : "WALKING""#)!.lowerBound]))
        let db = directory.path("w.sqlite")
        let imported = try await runWaymark(["import", cut, "--device", "phone", "--db", db])
        #expect(imported.status == 1)
        #expect(imported.stdout.contains("stopped: \(cut):"), "\(imported.stdout)")
        #expect(imported.stdout.contains("imported 2 new, 0 already present"), "\(imported.stdout)")
        let history = try await runWaymark(["history", "--db", db, "--device", "phone", "--kind", "fix"])
        #expect(history.stdoutLines.count == 2)
    }

    @Test func aFileOfNoKnownFormatIsRefusedFromItsFirstBytesWithNothingWritten() async throws {
        let directory = try TemporaryDirectory()
        // 64 MB of noise: refused from its first 16 KiB, before an import begins.
        let noise = directory.path("photo.bin")
        var generator = SplitMix64(seed: 40)
        var bytes = [UInt8](repeating: 0, count: 64 << 20)
        for index in stride(from: 0, to: bytes.count, by: 8) {
            withUnsafeBytes(of: generator.next()) { word in for offset in 0..<8 { bytes[index + offset] = word[offset] } }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: noise))
        let db = directory.path("w.sqlite")
        let refused = try await runWaymark(["import", noise, "--device", "phone", "--db", db])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("photo.bin"), "\(refused.stderr)")
        #expect(refused.stderr.contains("not a") || refused.stderr.contains("unknown") || refused.stderr.contains("no format"), "\(refused.stderr)")
        let imports = try await runProcess(URL(fileURLWithPath: "/usr/bin/sqlite3"), [db, "SELECT count(*) FROM imports"])
        #expect(imports.stdout == "0\n", "\(imports.stdout)\(imports.stderr)")
    }

    @Test func aKilledImportResumedByTheSameCommandCompletesWithoutDuplicates() async throws {
        let directory = try TemporaryDirectory()
        let records = directory.path("Records.json")
        let made = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/python3"), ["Benchmarks/make_takeout.py", "--size", "40M", records],
            currentDirectory: ProjectPaths.repositoryRoot)
        try #require(made.status == 0, "\(made.stderr)")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: records + ".manifest.json"))) as? [String: Any]
        let expected = try #require(manifest?["records"] as? Int)
        let db = directory.path("w.sqlite")
        let arguments = ["import", records, "--device", "phone", "--db", db, "--json"]

        let first = try BackgroundProcess.waymark(arguments)
        var killedWhileReading = false
        for _ in 0..<3000 where first.isRunning {
            if first.stdout.contains(#""phase":"reading""#) && first.stdout.range(of: #""added":[1-9]"#, options: .regularExpression) != nil {
                first.send(SIGKILL)
                killedWhileReading = true
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        _ = try await first.wait(timeout: 30)
        try #require(killedWhileReading, "the import ended before it could be killed: \(first.stdout.suffix(400))")

        let second = try await runWaymark(arguments)
        try #require(second.status == 0, "\(second.stderr)")
        let done = try #require(second.stdoutLines.last)
        #expect(done.contains(#""resumed":true"#), "\(done)")
        #expect(done.contains(#""state":"done""#), "\(done)")
        let counts = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/sqlite3"),
            [db, "SELECT count(*), (SELECT count(*) FROM (SELECT DISTINCT time_ns, latitude, longitude FROM fixes)) FROM fixes"])
        #expect(counts.stdout == "\(expected)|\(expected)\n", "\(counts.stdout)\(counts.stderr)")
    }
}
