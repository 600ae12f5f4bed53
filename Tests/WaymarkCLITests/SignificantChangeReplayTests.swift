import Foundation
import Testing
import WaymarkTestSupport

/// `waymark replay --significant --fast` on every timed shared track gives exactly the events of
/// docs/semantics.md §2's rule (first accepted fix, then each accepted fix ≥ 500 m geodesic and ≥ 300 s
/// from the last significant one), checked against an independent implementation: Python with
/// gpxpy (reading) and geographiclib (Karney's geodesics), applying the same validation gate.
@Suite struct SignificantChangeReplayTests {
    static let reference = #"""
        import gpxpy, json, sys
        from datetime import timezone
        from geographiclib.geodesic import Geodesic
        g = Geodesic.WGS84
        gpx = gpxpy.parse(open(sys.argv[1], encoding="utf-8"))
        points = [p for t in gpx.tracks for s in t.segments for p in s.points] + [p for r in gpx.routes for p in r.points]
        previous = None   # last admitted (time, lat, lon)
        last = None       # last significant
        for p in points:
            if p.type_of_gpx_fix == "none" or p.time is None:
                continue
            t = p.time.replace(tzinfo=p.time.tzinfo or timezone.utc).timestamp()
            if previous is not None:
                if t <= previous[0]:
                    continue
                d = g.Inverse(previous[1], previous[2], p.latitude, p.longitude)["s12"]
                if d / (t - previous[0]) > 60:
                    continue
            previous = (t, p.latitude, p.longitude)
            if last is None or (t - last[0] >= 300 and g.Inverse(last[1], last[2], p.latitude, p.longitude)["s12"] >= 500):
                last = previous
                print(json.dumps([round(t, 6), p.latitude, p.longitude]))
        """#

    @Test(arguments: try ProjectPaths.sharedGPXFiles().map(\.lastPathComponent).filter { !$0.contains("without-times") && $0 != "testneighboursearch.gpx" })
    func significantChangesMatchAnIndependentImplementation(file: String) async throws {
        let path = ProjectPaths.sharedData("gpx/" + file).path
        let python = try await runPython(Self.reference, [path])
        #expect(python.status == 0, "\(python.stderr)")
        let expected = try python.stdoutLines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Double]) }
        let replay = try await runWaymark(["replay", path, "--significant", "--fast"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let records = try replay.stdoutLines.compactMap { line -> [String: Any]? in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return object["kind"] as? String == "significantChange" ? object : nil
        }
        try #require(records.count == expected.count, "\(file): waymark \(records.count), reference \(expected.count)")
        #expect(!records.isEmpty)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        for (record, reference) in zip(records, expected) {
            let text = try #require(record["time"] as? String, "\(record)")
            let date = try #require(formatter.date(from: text) ?? plain.date(from: text))
            #expect(abs(date.timeIntervalSince1970 - reference[0]) < 1e-3, "\(file): \(text) vs \(reference[0])")
            let (latitude, longitude) = (try #require(record["latitude"] as? Double), try #require(record["longitude"] as? Double))
            #expect(abs(latitude - reference[1]) < 1e-9 && abs(longitude - reference[2]) < 1e-9, "\(record)")
        }
    }

    @Test func serviceOptionsNeedTheirService() async throws {
        let result = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--distance-filter", "50"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("need --standard"))
        let bad = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--standard", "--desired-accuracy", "7"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--desired-accuracy"))
    }

    @Test func theSummaryCountsAcceptedDroppedAndEvents() async throws {
        let result = try await runWaymark([
            "replay", ProjectPaths.sharedData("gpx/Mojstrovka.gpx").path, "--significant", "--standard", "--fast",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let last = try #require(result.stdoutLines.last, "\(result.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        // Mojstrovka's 184 points carry one 1901 time (20:45:52.2073437Z) except the second,
        // 0.34 ms earlier (…52.207Z): the first is accepted, then 1 goes backwards, 182 duplicate.
        #expect(summary["accepted"] as? Int == 1)
        #expect((summary["dropped"] as? [String: Int])?["duplicate"] == 182)
        #expect((summary["dropped"] as? [String: Int])?["timeBackwards"] == 1)
        #expect((summary["events"] as? [String: Int])?["significantChange"] == 1)
        #expect((summary["events"] as? [String: Int])?["location"] == 1)
    }
}
