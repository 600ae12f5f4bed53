import Foundation
import Testing
import WaymarkTestSupport

/// Every kind of bad input gives a message naming what and where, a non-zero exit status, and
/// no records on standard output beyond those of fixes already replayed.
@Suite struct BadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var gpx: String
        /// What standard error must contain after "FILE:".
        var expected: String
        var testDescription: String { name }
    }

    static let header = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"

    static let gpxCases: [Case] = [
        Case(name: "not XML", gpx: "lat,lon\n1,2\n", expected: ":1:1: "),
        Case(name: "truncated", gpx: header + "<trk><trkseg><trkpt lat=\"1\" lon=\"2\"></trkpt>\n<trkpt lat=\"1\"", expected: ":4:"),
        Case(name: "bad number", gpx: header + "<trk><trkseg>\n<trkpt lat=\"4x7\" lon=\"8\"/></trkseg></trk></gpx>", expected: ":4:"),
        Case(name: "latitude out of range", gpx: header + "<trk><trkseg>\n<trkpt lat=\"91\" lon=\"8\"/></trkseg></trk></gpx>", expected: ":4:"),
        Case(name: "longitude out of range", gpx: header + "<trk><trkseg>\n<trkpt lat=\"47\" lon=\"-180.5\"/></trkseg></trk></gpx>", expected: ":4:"),
        Case(name: "entity declaration", gpx: "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!ENTITY a \"aaaa\">]>\n<gpx version=\"1.1\"><wpt lat=\"1\" lon=\"1\"><name>&a;</name></wpt></gpx>", expected: ":2:"),
    ]

    @Test(arguments: gpxCases)
    func malformedGPXIsALocatedErrorAndExitsNonZero(_ testCase: Case) async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.gpx", testCase.gpx)
        let result = try await runWaymark(["replay", path, "--fast"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("bad.gpx" + testCase.expected), "stderr: \(result.stderr)")
        #expect(!result.stdout.contains("summary"), "a failed replay must not claim a summary")
        #expect(!result.stderr.contains("Fatal error"), "crashed: \(result.stderr)")
    }

    @Test func aMissingTrackNamesThePath() async throws {
        let result = try await runWaymark(["replay", "/nonexistent/track.gpx", "--fast"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("/nonexistent/track.gpx"))
    }

    @Test func malformedGeoJSONNamesFileLineAndColumn() async throws {
        let directory = try TemporaryDirectory()
        let regions = try directory.write("bad.geojson", "{\"type\": \"FeatureCollection\",\n \"features\": [ {\"type\": \"Feature\" ,, } ]}")
        let result = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--regions", regions, "--fast"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("bad.geojson:2:"), "stderr: \(result.stderr)")
    }

    @Test func aCircleWithoutRadiusNamesTheField() async throws {
        let directory = try TemporaryDirectory()
        let regions = try directory.write("circle.geojson", """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "c1", "properties": {}, "geometry": {"type": "Point", "coordinates": [8, 47]}}
            ]}
            """)
        let result = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--regions", regions, "--fast"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("circle.geojson:2:"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("radius"), "stderr: \(result.stderr)")
    }

    @Test func aSelfIntersectingPolygonIsRejectedWithItsIdentifierAndReason() async throws {
        let directory = try TemporaryDirectory()
        let regions = try directory.write("bowtie.geojson", """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "bowtie", "properties": {},
               "geometry": {"type": "Polygon", "coordinates": [[[8,47],[8.1,47.1],[8.1,47],[8,47.1],[8,47]]]}}
            ]}
            """)
        let db = directory.path("store.sqlite")
        let result = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--regions", regions, "--db", db, "--fast"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("bowtie"), "stderr: \(result.stderr)")
        #expect(result.stderr.lowercased().contains("self-intersection"), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [
        (["--fast", "--speed", "2"], "cannot be used together"),
        (["--speed", "0"], "--speed"),
        (["--speed", "fast"], "--speed"),
    ])
    func conflictingOrBadOptionsAreUsageErrors(arguments: [String], expected: String) async throws {
        let result = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx"] + arguments)
        #expect(result.status == 64, "usage errors exit with EX_USAGE")
        #expect(result.stderr.contains(expected), "stderr: \(result.stderr)")
    }
}
