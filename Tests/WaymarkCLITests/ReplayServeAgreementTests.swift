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
            for i, p in enumerate(points):  # elevations kept: location records carry them
                segment.points.append(P(p.latitude, p.longitude, elevation=p.elevation, time=p.time))
                if i % 3 == 0: segment.points.append(P(p.latitude, p.longitude, elevation=p.elevation, time=p.time))
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

    /// docs/semantics.md §2.6: a walk with stops of 15 and 27 minutes (`waymark simulate --stop`)
    /// whose logger went silent inside each, 10 and 24 minutes, and came back with a cold start's
    /// 80 m error. Each stop is one visit, from its arrival to its departure, in replay and in the
    /// daemon alike.
    @Test func stopsWithSilences() async throws {
        let directory = try TemporaryDirectory()
        let walk = directory.path("walk.gpx")
        let simulated = try await runWaymark([
            "simulate", "--waypoint", "47.0,8.0", "--waypoint", "47.006,8.0", "--waypoint", "47.006,8.008", "--waypoint", "47.0,8.008",
            "--speed", "1.4", "--interval", "5", "--stop", "1:900", "--stop", "2:1620", "--seed", "3", "-o", walk,
        ])
        try #require(simulated.status == 0, "\(simulated.stderr)")
        let silent = directory.path("silent.gpx")
        let script = """
            import sys, json, datetime, gpxpy, gpxpy.gpx
            from geographiclib.geodesic import Geodesic
            # Per stop: its waypoint, seconds recorded after arriving and before leaving, and the
            # cold-start error of the first fix after the silence (metres north, or south).
            stops = [(47.006, 8.0, 30, 60, 80), (47.006, 8.008, 60, 120, -80)]
            g = gpxpy.parse(open(sys.argv[1]))
            points = [p for t in g.tracks for s in t.segments for p in s.points]
            drop, seen = set(), []
            for lat, lon, head, tail, error in stops:
                at = [p.time for p in points if Geodesic.WGS84.Inverse(lat, lon, p.latitude, p.longitude)["s12"] <= 15]
                first, last = at[0], at[-1]
                seen.append([first.timestamp(), last.timestamp()])
                cut = [i for i, p in enumerate(points)
                       if first + datetime.timedelta(seconds=head) < p.time < last - datetime.timedelta(seconds=tail)]
                drop.update(cut)
                back = points[cut[-1] + 1]
                moved = Geodesic.WGS84.Direct(back.latitude, back.longitude, 0 if error > 0 else 180, abs(error))
                back.latitude, back.longitude = moved["lat2"], moved["lon2"]
            out = gpxpy.gpx.GPX(); track = gpxpy.gpx.GPXTrack(); segment = gpxpy.gpx.GPXTrackSegment()
            out.tracks.append(track); track.segments.append(segment)
            segment.points.extend(p for i, p in enumerate(points) if i not in drop)
            open(sys.argv[2], "w").write(out.to_xml())
            print(json.dumps(seen))
            """
        let made = try await runPython(script, [walk, silent])
        try #require(made.status == 0, "\(made.stderr)")
        let stops = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [[Double]])
        let regions = try directory.write("none.geojson", #"{"type":"FeatureCollection","features":[]}"#)
        let (replayed, served) = try await Self.bothWays(track: silent, regions: regions, in: directory)
        #expect(Self.difference(served, replayed) == nil)

        let visits = replayed.compactMap { line -> (event: String, time: Double)? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["kind"] as? String == "visit", let event = object["event"] as? String, let time = object["time"] as? String,
                let date = ISO8601DateFormatter().date(from: time)
            else { return nil }
            return (event, date.timeIntervalSince1970)
        }
        try #require(visits.map(\.event) == ["arrival", "departure", "arrival", "departure"], "\(replayed)")
        for (index, stop) in stops.enumerated() {
            let (arrival, departure) = (visits[2 * index].time, visits[2 * index + 1].time)
            // Stamped with the stay's first fix (the walker slowing, up to 100 m before the
            // waypoint) and its last inside (walking off, up to 100 m after).
            #expect(arrival >= stop[0] - 120 && arrival <= stop[0] + 10, "arrival \(arrival) for a stop from \(stop[0])")
            #expect(departure >= stop[1] - 10 && departure <= stop[1] + 120, "departure \(departure) for a stop to \(stop[1])")
        }
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
