import Foundation
import Testing
import WaymarkTestSupport

/// A logger file with several trips months apart (docs/semantics.md §3.3): the straight line
/// from the last fix of one trip to the first of the next is no path, so a region on it is not
/// reported crossed; within a trip sparse fixes still infer crossings.
@Suite struct CrossingGapTests {
    /// Two trips in one GPX file, each its own `<trk>`: around Freiburg in June 2024, around
    /// Lyon in October 2025. A 10 km circle sits on the straight line between them (the Jura),
    /// and a 60 m one between two fixes of the first trip, 2 minutes and 1.2 km apart.
    static func files(in directory: TemporaryDirectory) throws -> (track: String, regions: String) {
        func trip(_ points: [(Double, Double, String)]) -> String {
            "<trk><trkseg>\n" + points.map { "<trkpt lat=\"\($0.0)\" lon=\"\($0.1)\"><time>\($0.2)</time></trkpt>\n" }.joined() + "</trkseg></trk>\n"
        }
        let freiburg = [
            (47.9900, 7.8400, "2024-06-01T09:00:00Z"), (47.9901, 7.8410, "2024-06-01T09:00:10Z"),
            (47.9902, 7.8420, "2024-06-01T09:00:20Z"), (47.9902, 7.8580, "2024-06-01T09:02:20Z"),
            (47.9903, 7.8590, "2024-06-01T09:02:30Z"),
        ]
        let lyon = [
            (45.7600, 4.8400, "2025-10-04T14:00:00Z"), (45.7601, 4.8410, "2025-10-04T14:00:10Z"),
            (45.7602, 4.8420, "2025-10-04T14:00:20Z"),
        ]
        let gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
            + trip(freiburg) + trip(lyon) + "</gpx>\n"
        let regions = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"jura","geometry":{"type":"Point","coordinates":[6.34,46.875]},"properties":{"radius":10000}},
            {"type":"Feature","id":"chapel","geometry":{"type":"Point","coordinates":[7.85,47.9902]},"properties":{"radius":60}}
            ]}
            """
        return (try directory.write("logger.gpx", gpx), try directory.write("regions.geojson", regions))
    }

    static func regionRecords(_ arguments: [String]) async throws -> [String] {
        let result = try await runWaymark(["replay"] + arguments + ["--fast"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdoutLines.filter { $0.hasPrefix("{\"kind\":\"region\"") }
    }

    @Test func noCrossingIsInventedAcrossMonthsBetweenTrips() async throws {
        let directory = try TemporaryDirectory()
        let (track, regions) = try Self.files(in: directory)
        let records = try await Self.regionRecords([track, "--regions", regions])
        // The chapel, passed between two fixes of the first trip, is crossed; the Jura is not.
        #expect(records.count == 2, "\(records)")
        #expect(records.allSatisfy { $0.contains("\"region\":\"chapel\"") && $0.contains("\"crossed\":true") }, "\(records)")
        // The same file with the limit lifted: the straight line from Freiburg to Lyon "crosses"
        // the Jura 16 months later — what the limit is there to prevent.
        let lifted = try await Self.regionRecords([track, "--regions", regions, "--crossing-gap", "100000000"])
        #expect(lifted.filter { $0.contains("\"region\":\"jura\"") }.count == 2, "\(lifted)")
    }

    @Test func aBadCrossingGapIsAUsageError() async throws {
        let result = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--crossing-gap=-1"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--crossing-gap must be a number of seconds"), "\(result.stderr)")
    }
}
