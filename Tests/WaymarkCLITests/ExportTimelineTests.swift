import Foundation
import Testing
import WaymarkTestSupport

/// `waymark export --timeline`: the day `waymark timeline` prints, as a styled GPX (checked
/// against GPX 1.1 and the style extensions' schemas, read back by gpxpy) and as GeoJSON.
@Suite struct ExportTimelineTests {
    /// The lakeside ride (a 10-minute stop at the hut) imported as `bike`, regions from Regions/.
    static func session() async throws -> FreshSession {
        let session = try FreshSession(.unset)
        let regions = try await session.waymark(["regions", "import", "Regions/lakeside.geojson"])
        try #require(regions.status == 0, "\(regions.stderr)")
        let imported = try await session.waymark(["import", "Tracks/lakeside-ride.gpx", "--device", "bike"])
        try #require(imported.status == 0, "\(imported.stderr)")
        return session
    }

    @Test func theDayIsAStyledGPXOfStaysAndTrips() async throws {
        let session = try await Self.session()
        let database = session.home + "/.local/share/waymark/waymark.sqlite"
        let file = session.directory.path("day.gpx")
        let exported = try await session.waymark(["export", "--timeline", "--db", database, "--device", "bike", "--format", "gpx", "-o", file])
        try #require(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stderr.contains("day.gpx: 1 stays, 2 trips"), "\(exported.stderr)")
        let valid = try await ExportReaders.validateStyledGPX(file, in: session.directory)
        #expect(valid.status == 0, "\(valid.stderr)")
        let read = try await runPython(
            """
            import gpxpy, sys
            g = gpxpy.parse(open(sys.argv[1]))
            for w in g.waypoints: print('wpt', w.name, w.type)
            for t in g.tracks: print('trk', t.name, t.type, len(t.segments[0].points) > 2)
            """, [file])
        #expect(read.status == 0, "\(read.stderr)")
        // The stop at the hut is named by the region holding it (its `name`); both legs are rides.
        #expect(
            read.stdoutLines == ["wpt Mountain hut stay", "trk Cycling to Mountain hut cycling True", "trk Cycling to Trailhead car park cycling True"],
            "\(read.stdout)")

        // The same stays and trips as `waymark timeline --json`.
        let json = try await session.waymark(["timeline", "--device", "bike", "--json"])
        try #require(json.status == 0, "\(json.stderr)")
        let kinds = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])["entries"] as? [[String: Any]]
        #expect(kinds?.map { $0["kind"] as? String } == ["trip", "stay", "trip"])
    }

    @Test func theDayIsGeoJSONWithAFeaturePerStayAndTrip() async throws {
        let session = try await Self.session()
        let database = session.home + "/.local/share/waymark/waymark.sqlite"
        let exported = try await session.waymark(["export", "--timeline", "--db", database, "--device", "bike", "--format", "geojson", "-o", "-"])
        try #require(exported.status == 0, "\(exported.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
        let features = try #require(document["features"] as? [[String: Any]])
        let properties = features.compactMap { $0["properties"] as? [String: Any] }
        #expect(properties.map { $0["kind"] as? String } == ["stay", "trip", "trip"])
        #expect(properties.compactMap { $0["stroke"] as? String } == ["#0072b2", "#0072b2"], "cycling's colour")
    }

    @Test(arguments: [
        (["--timeline", "--format", "kml", "-o", "-", "--db", "x.sqlite"], "--timeline writes gpx or geojson, got 'kml'"),
        (["--timeline", "--format", "gpx", "-o", "-", "Tracks/lakeside-ride.gpx"], "--timeline exports the history: give --db, not a track"),
        (["--day", "2026-05-02", "--format", "gpx", "-o", "-", "--db", "x.sqlite"], "--day goes with --timeline"),
        (["--timeline", "--day", "2026-13-02", "--format", "gpx", "-o", "-", "--db", "x.sqlite"], "--day: "),
        (["--timeline", "--day", "2026-05-02", "--from", "2026-05-02T00:00:00Z", "--to", "2026-05-03T00:00:00Z", "--format", "gpx", "-o", "-", "--db", "x.sqlite"],
         "--day: give either --day or --from and --to, not both"),
    ])
    func badOptionsAreUsageErrors(_ arguments: [String], _ message: String) async throws {
        let result = try await runWaymark(["export"] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
