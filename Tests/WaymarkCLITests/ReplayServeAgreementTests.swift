import Foundation
import Testing
import WaymarkTestSupport

/// `waymark replay` and `waymark serve --replay` run one device pipeline, so the same track
/// gives the same events, record for record and in the same order — for every timed shared
/// track, and for a track with the faults receivers produce (times going backwards, duplicates,
/// impossible jumps).
@Suite(.serialized) struct ReplayServeAgreementTests {
    /// The shared tracks whose points all have times (untimed points are stamped on arrival by
    /// the daemon, so they cannot agree with a replay by construction).
    static let timedTracks = [
        "bikeride.gpx", "skytraq-miniHomer2_8.gpx", "tcxtest.gpx", "bike~gpx.gpx", "gtrnctr_power.gpx", "endomondo.gpx",
        "cerknicko-jezero.gpx", "Mojstrovka.gpx",
    ]

    static let configuration = """
        subscriptions:
          s:
            standard: { distance_filter: 200 }
            significant_change: true
            visits: true
        """
    static let replayFlags = ["--standard", "--distance-filter", "200", "--significant", "--visits"]

    @Test(arguments: timedTracks)
    func sharedTrack(_ name: String) async throws {
        let directory = try TemporaryDirectory()
        let track = ProjectPaths.sharedData("gpx/\(name)").path
        let regions = try await Self.regions(along: track, in: directory)
        let (replayed, served) = try await Self.bothWays(track: track, regions: regions, in: directory)
        #expect(!replayed.isEmpty)
        #expect(Self.difference(served, replayed) == nil)
    }

    /// Every third point repeated, every 50th followed by one from 20 points back, every 70th by a
    /// jump 3° away a second later: the gate keeps them all out in both.
    @Test func aTrackWithInjectedFaults() async throws {
        let directory = try TemporaryDirectory()
        let faulty = directory.path("faulty.gpx")
        let script = """
            import sys, datetime, gpxpy
            gpx = gpxpy.parse(open(sys.argv[1]))
            points = [p for t in gpx.tracks for s in t.segments for p in s.points]
            out = gpxpy.gpx.GPX(); track = gpxpy.gpx.GPXTrack(); segment = gpxpy.gpx.GPXTrackSegment()
            out.tracks.append(track); track.segments.append(segment)
            P = gpxpy.gpx.GPXTrackPoint
            for i, p in enumerate(points):
                segment.points.append(P(p.latitude, p.longitude, time=p.time))
                if i % 3 == 0: segment.points.append(P(p.latitude, p.longitude, time=p.time))
                if i % 50 == 49: q = points[i - 20]; segment.points.append(P(q.latitude, q.longitude, time=q.time))
                if i % 70 == 69: segment.points.append(P(p.latitude + 3, p.longitude, time=p.time + datetime.timedelta(seconds=1)))
            open(sys.argv[2], "w").write(out.to_xml())
            """
        let made = try await runPython(script, [ProjectPaths.sharedData("gpx/bikeride.gpx").path, faulty])
        #expect(made.status == 0, "\(made.stderr)")
        let clean = ProjectPaths.sharedData("gpx/bikeride.gpx").path
        let regions = try await Self.regions(along: clean, in: directory)
        let (replayed, served) = try await Self.bothWays(track: faulty, regions: regions, in: directory)
        let (expected, _) = try await Self.bothWays(track: clean, regions: regions, in: directory, serve: false)
        #expect(replayed.contains { $0.hasPrefix("{\"kind\":\"region\"") })
        #expect(Self.difference(served, replayed) == nil)
        // The faults change nothing: the gate kept every one of them out.
        #expect(Self.difference(replayed, expected) == nil)
    }

    /// Regions seeded along `track` (about half crossed, half near misses).
    static func regions(along track: String, in directory: TemporaryDirectory) async throws -> String {
        let regions = directory.path("regions.geojson")
        let generated = try await runWaymark(["regions", "generate", "--along", track, "--seed", "7", "-o", regions])
        #expect(generated.status == 0, "\(generated.stderr)")
        return regions
    }

    /// Where two record lists first differ, briefly; nil when they are equal.
    static func difference(_ a: [String], _ b: [String]) -> String? {
        guard a != b else { return nil }
        let index = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        return "\(a.count) vs \(b.count) records; first difference at \(index): "
            + "\(index < a.count ? a[index] : "(end)") vs \(index < b.count ? b[index] : "(end)")"
    }

    /// The track's events from `waymark replay` and from the records `waymark serve --replay`
    /// stored (in the order it stored them, subscription label removed).
    static func bothWays(track: String, regions: String, in directory: TemporaryDirectory, serve: Bool = true) async throws -> ([String], [String]) {
        let replay = try await runWaymark(["replay", track, "--regions", regions, "--fast"] + replayFlags)
        #expect(replay.status == 0, "\(replay.stderr)")
        let replayed = replay.stdoutLines.filter {
            !$0.hasPrefix("{\"kind\":\"state\"") && !$0.hasPrefix("{\"kind\":\"summary\"")
        }
        guard serve else { return (replayed, []) }
        let db = directory.path("w-\(UUID().uuidString).sqlite")
        let config = try directory.write("waymark.yaml", configuration)
        let served = try await runWaymark([
            "serve", "--config", config, "--replay", track, "--regions", regions, "--fast", "--exit-after-replay",
            "--db", db, "--socket", directory.path("api-\(UUID().uuidString.prefix(8)).sock"),
        ])
        #expect(served.status == 0, "\(served.stderr)")
        let stored = try await runProcess(URL(fileURLWithPath: "/usr/bin/sqlite3"), [db, "SELECT record FROM events ORDER BY id"])
        #expect(stored.status == 0, "\(stored.stderr)")
        let records = stored.stdoutLines.map { line in
            line.hasSuffix(",\"subscription\":\"s\"}") ? String(line.dropLast(",\"subscription\":\"s\"}".count)) + "}" : line
        }
        return (replayed, records)
    }
}
