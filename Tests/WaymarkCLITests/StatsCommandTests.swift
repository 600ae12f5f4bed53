import Foundation
import Testing
import WaymarkTestSupport

/// `waymark stats` against an independent implementation of the same definitions: gpxpy reads
/// the track, geographiclib measures it (Karney), the gap rule splits it.
@Suite struct StatsCommandTests {
    static let reference = #"""
        import gpxpy, json, sys
        from geographiclib.geodesic import Geodesic
        G = Geodesic.WGS84
        g = gpxpy.parse(open(sys.argv[1], encoding="utf-8"))
        pieces = [s.points for t in g.tracks for s in t.segments] + [r.points for r in g.routes]
        distance, segments, previous = 0.0, 0, None
        for piece in pieces:
            for i, p in enumerate(piece):
                starts = i == 0
                if not starts and previous.time and p.time and (p.time - previous.time).total_seconds() > 300 \
                        and G.Inverse(previous.latitude, previous.longitude, p.latitude, p.longitude)["s12"] > 100:
                    starts = True
                if starts:
                    segments += 1
                else:
                    distance += G.Inverse(previous.latitude, previous.longitude, p.latitude, p.longitude)["s12"]
                previous = p
        print(json.dumps({"distance": distance, "segments": segments, "points": sum(len(p) for p in pieces)}))
        """#

    @Test(arguments: try ProjectPaths.sharedGPXFiles().map(\.lastPathComponent))
    func distanceAndSegmentsMatchGeographiclib(file: String) async throws {
        let path = ProjectPaths.sharedData("gpx/" + file).path
        let python = try await runPython(Self.reference, [path])
        try #require(python.status == 0, "\(python.stderr)")
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: Double])
        let stats = try await runWaymark(["stats", path, "--json"])
        try #require(stats.status == 0, "\(stats.stderr)")
        let got = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(got["points"] as? Int == Int(expected["points"]!))
        #expect(got["segments"] as? Int == Int(expected["segments"]!), "\(file)")
        let distance = try #require(got["distance"] as? Double)
        #expect(abs(distance - expected["distance"]!) <= 0.01, "\(file): \(distance) m vs \(expected["distance"]!) m")
    }

    @Test func textShowsEveryFigure() async throws {
        let result = try await runWaymark(["stats", "Tracks/lakeside-ride.gpx"])
        #expect(result.status == 0)
        for label in ["distance", "moving time", "elevation gain", "elevation loss", "max speed", "average speed", "points"] {
            #expect(result.stdout.contains(label), "no \(label): \(result.stdout)")
        }
        let missing = try await runWaymark(["stats", "/nonexistent.gpx"])
        #expect(missing.status == 1 && missing.stderr.contains("/nonexistent.gpx"))
    }
}
