import Foundation
import Logging
import Testing
import WaymarkCore
import WaymarkStore
import WaymarkTestSupport

/// `waymark export --db` and `waymark stats`: the history a real daemon recorded, split at a
/// stored gap, with the region events it recorded and visits computed from its fixes.
@Suite struct ExportHistoryTests {
    /// A database of the sample ride recorded by `waymark serve --replay`, with a gap at 08:20.
    static func recordedRide(in directory: TemporaryDirectory) async throws -> String {
        let db = directory.path("waymark.sqlite")
        let served = try await runWaymark([
            "serve", "--replay", "Tracks/lakeside-ride.gpx", "--fast", "--exit-after-replay",
            "--regions", "Regions", "--db", db, "--socket", directory.path("api.sock"),
        ])
        try #require(served.status == 0, "\(served.stderr)")
        let store = try WaymarkStore(path: db, logger: Logger(label: "test"))
        try store.recordGap(time: Timestamp(rfc3339: "2026-06-01T08:19:59.5Z")!, reason: "no-fix", source: "test")
        return db
    }

    static let summary = #"""
        import gpxpy, sys
        g = gpxpy.parse(open(sys.argv[1]))
        segments = [len(s.points) for t in g.tracks for s in t.segments]
        kinds = {}
        for w in g.waypoints:
            kinds[w.type] = kinds.get(w.type, 0) + 1
        print(segments, sorted(kinds.items()), g.tracks[0].segments[1].points[0].time.strftime("%H:%M:%S"))
        """#

    @Test func theHistoryExportsSplitAtItsGapWithItsEvents() async throws {
        let directory = try TemporaryDirectory()
        let db = try await Self.recordedRide(in: directory)
        let output = directory.path("history.gpx")
        let export = try await runWaymark(["export", "--db", db, "--format", "gpx", "-o", output])
        try #require(export.status == 0, "\(export.stderr)")
        let summary = try await runPython(Self.summary, [output])
        // 1200 fixes before 08:20:00, 1774 from it on; the 14 region events the daemon recorded;
        // the ten-minute stop at the hut is a visit (computed: the daemon records no visits yet).
        #expect(summary.stdout.hasPrefix("[1200, 1774] [('arrival', 1), ('departure', 1), ('enter', 7), ('exit', 7), ('significantChange',"), "\(summary.stdout)\(summary.stderr)")
        #expect(summary.stdout.hasSuffix(" 08:20:00\n"), "\(summary.stdout)")
        let valid = try await ExportReaders.validate(output, schema: "Topografix_gpx11.xsd")
        #expect(valid.status == 0, "\(valid.stderr)")
    }

    @Test func aTimeRangeExportsOnlyItsFixes() async throws {
        let directory = try TemporaryDirectory()
        let db = try await Self.recordedRide(in: directory)
        let output = directory.path("window.geojson")
        let export = try await runWaymark([
            "export", "--db", db, "--from", "2026-06-01T08:10:00Z", "--to", "2026-06-01T08:11:00Z", "--format", "geojson", "-o", output,
        ])
        try #require(export.status == 0, "\(export.stderr)")
        let info = try await runProcess(URL(fileURLWithPath: "/usr/bin/ogrinfo"), ["-ro", "-al", "-q", "-where", "kind = 'track'", output])
        #expect(info.stdout.contains("LINESTRING Z"), "\(info.stdout)")
        #expect(info.stdout.contains("\"points\": 60,"), "\(info.stdout)")
        let empty = try await runWaymark([
            "export", "--db", db, "--from", "2030-01-01T00:00:00Z", "--format", "geojson", "-o", directory.path("none.geojson"),
        ])
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("has no track points"), "\(empty.stderr)")
    }

    @Test func statsReadTheHistoryToo() async throws {
        let directory = try TemporaryDirectory()
        let db = try await Self.recordedRide(in: directory)
        let fromHistory = try await runWaymark(["stats", "--db", db, "--json"])
        let fromFile = try await runWaymark(["stats", "Tracks/lakeside-ride.gpx", "--json"])
        #expect(fromHistory.stdout.contains("\"points\":2974,\"segments\":2,"), "\(fromHistory.stdout)")
        #expect(fromFile.stdout.contains("\"points\":2974,\"segments\":1,"), "\(fromFile.stdout)")
    }
}
