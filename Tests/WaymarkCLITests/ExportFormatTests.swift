import Foundation
import Testing
import WaymarkTestSupport

/// `waymark export` to GPX, GeoJSON and KML on real tracks: every file validates against its
/// schema where one exists, and independent readers (gpxpy, GDAL's ogr2ogr, gpsbabel) see the
/// input's coordinates within 1e-7 degrees.
@Suite struct ExportFormatTests {
    static let tracks = ["tcxtest.gpx", "cerknicko-jezero.gpx", "endomondo.gpx", "bike~gpx.gpx", "korita-zbevnica.gpx"]

    @Test(arguments: tracks, ["gpx", "geojson", "kml"])
    func independentReadersSeeTheInputsCoordinates(track: String, format: String) async throws {
        let directory = try TemporaryDirectory()
        let input = ProjectPaths.sharedData("gpx/" + track).path
        let output = directory.path("export." + format)
        let export = try await runWaymark(["export", input, "--format", format, "-o", output])
        try #require(export.status == 0, "\(export.stderr)")
        let (reading, stderr) = try await ExportReaders.read(
            original: input, exported: output, format: format, trackName: String(track.dropLast(4)))
        let result = try #require(reading, "readers failed: \(stderr)")
        #expect(result.readers.count >= 2)
        for (reader, seen) in result.readers {
            #expect(seen.points == result.expected, "\(track) \(format): \(reader) read \(seen.points) of \(result.expected) points")
            #expect(seen.maxError <= 1e-7, "\(track) \(format): \(reader) differs by \(seen.maxError)°")
        }
        switch format {
        case "gpx":
            let check = try await ExportReaders.validateStyledGPX(output, in: directory)
            #expect(check.status == 0, "GPX 1.1 and style schemas: \(check.stderr)")
        case "kml":
            let check = try await ExportReaders.validate(output, schema: "ogckml22.xsd")
            #expect(check.status == 0, "KML 2.2 schema: \(check.stderr)")
        default:
            break
        }
    }

    /// tcxtest enters Santa Monica Mountains NRA (SAMO) at 13:57:20Z and leaves at 14:18:15Z
    /// (MANIFEST.md, checked with shapely): the export's waypoints, points and placemarks say so.
    @Test func regionTransitionsBecomeWaypointsPointsAndPlacemarks() async throws {
        let directory = try TemporaryDirectory()
        let input = ProjectPaths.sharedData("gpx/tcxtest.gpx").path
        let regions = ProjectPaths.sharedData("geojson/ne_10m_parks_and_protected_lands_area.json").path
        for format in ["gpx", "geojson", "kml"] {
            let output = directory.path("samo." + format)
            let export = try await runWaymark(["export", input, "--regions", regions, "--id-property", "unit_code", "--format", format, "-o", output])
            try #require(export.status == 0, "\(export.stderr)")
        }
        let gpx = try await runPython("""
            import gpxpy, sys
            g = gpxpy.parse(open(sys.argv[1]))
            for w in g.waypoints:
                if w.type in ("enter", "exit"):
                    print(w.type, w.name, w.time.strftime("%H:%M:%S"))
            """, [directory.path("samo.gpx")])
        #expect(gpx.stdoutLines == ["enter Enter SAMO 13:57:20", "exit Exit SAMO 14:18:15"], "\(gpx.stdout)\(gpx.stderr)")
        let geojson = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/ogrinfo"),
            ["-ro", "-al", "-q", "-where", "kind IN ('enter','exit')", directory.path("samo.geojson")])
        #expect(geojson.stdout.contains("name (String) = Enter SAMO") && geojson.stdout.contains("2008/08/21 13:57:20"), "\(geojson.stdout)")
        let polygons = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/ogrinfo"), ["-ro", "-al", "-q", "-where", "kind = 'region'", directory.path("samo.geojson")])
        #expect(polygons.stdout.components(separatedBy: "OGRFeature").count - 1 == 61)
        let kml = try await runProcess(URL(fileURLWithPath: "/usr/bin/ogrinfo"), ["-ro", "-q", directory.path("samo.kml"), "Events"])
        #expect(kml.stdout.contains("Enter SAMO") && kml.stdout.contains("Exit SAMO"), "\(kml.stdout)")
    }

    /// A voyage near Fiji east over the antimeridian and back, with a buoy on it: Python's own
    /// JSON reader sees the track and the buoy cut at ±180° (RFC 7946 §3.1.9) into a
    /// MultiLineString and a MultiPolygon, no step over 180° of longitude, and every fix.
    @Test func aTrackOverTheAntimeridianIsCutThere() async throws {
        let directory = try TemporaryDirectory()
        let track = try directory.write("fiji.gpx", """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="-17" lon="179.9"/><trkpt lat="-17.01" lon="179.95"/><trkpt lat="-17.02" lon="-179.98"/>
            <trkpt lat="-17.03" lon="-179.9"/><trkpt lat="-17.04" lon="179.97"/>
            </trkseg></trk></gpx>
            """)
        let regions = try directory.write("buoy.geojson", """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"buoy","properties":{"radius":1000},
            "geometry":{"type":"Point","coordinates":[179.999,-17.02]}}]}
            """)
        let output = directory.path("fiji.geojson")
        let export = try await runWaymark(["export", track, "--regions", regions, "--format", "geojson", "-o", output])
        try #require(export.status == 0, "\(export.stderr)")
        let check = try await runPython("""
            import json, sys
            doc = json.load(open(sys.argv[1]))
            for f in doc["features"]:
                g = f["geometry"]
                if f["properties"]["kind"] == "track":
                    lines = g["coordinates"]
                elif f["properties"]["kind"] == "region":
                    lines = [ring for polygon in g["coordinates"] for ring in polygon]
                else:
                    continue
                steps = max(abs(b[0] - a[0]) for line in lines for a, b in zip(line, line[1:]))
                seam = [[p[0], round(p[1], 9)] for line in lines for p in line if abs(p[0]) == 180]
                print(g["type"], len(lines), sum(len(line) for line in lines), steps < 180, seam if f["properties"]["kind"] == "track" else len(seam))
            print(doc["bbox"])
            """, [output])
        // East over the seam 5/7 of the way from 179.95 to −179.98 (latitude −17.01 − 0.01 · 5/7),
        // back west 10/13 of the way from −179.9 to 179.97 (−17.03 − 0.01 · 10/13): five fixes
        // and four cut points in three lines; the buoy in two rings, each with two seam points
        // and closed on one of them. The bbox goes the short way, west > east (RFC 7946 §5.2).
        #expect(check.stdoutLines == [
            "MultiLineString 3 9 True [[180, -17.017142857], [-180, -17.017142857], [-180, -17.037692308], [180, -17.037692308]]",
            "MultiPolygon 2 78 True 6",
            "[179.9, -17.04, -179.9, -17]",
        ], "\(check.stdout)\(check.stderr)")
    }

    @Test func simplifiedExportsStayWithinTheToleranceForAnIndependentGeodesic() async throws {
        let directory = try TemporaryDirectory()
        let input = ProjectPaths.sharedData("gpx/bikeride.gpx").path
        let output = directory.path("simple.gpx")
        let export = try await runWaymark(["export", input, "--simplify", "10", "--format", "gpx", "-o", output])
        try #require(export.status == 0, "\(export.stderr)")
        // geographiclib: every original point within 10 m of the simplified line (nearest point
        // of each geodesic by golden-section search), and far fewer points.
        let check = try await runPython(#"""
            import gpxpy, sys
            from geographiclib.geodesic import Geodesic
            G = Geodesic.WGS84
            orig = [p for t in gpxpy.parse(open(sys.argv[1])).tracks for s in t.segments for p in s.points]
            kept = [p for t in gpxpy.parse(open(sys.argv[2])).tracks for s in t.segments for p in s.points]
            def seg(p, a, b):
                line = G.InverseLine(a.latitude, a.longitude, b.latitude, b.longitude)
                f = lambda s: G.Inverse(p.latitude, p.longitude, *[line.Position(s)[k] for k in ("lat2", "lon2")])["s12"]
                lo, hi = 0.0, line.s13
                for _ in range(60):
                    m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
                    if f(m1) < f(m2): hi = m2
                    else: lo = m1
                return min(f(lo), f(0), f(line.s13))
            same = lambda p, q: abs(p.latitude - q.latitude) <= 1e-7 and abs(p.longitude - q.longitude) <= 1e-7
            j, worst = 0, 0.0
            for i in range(len(kept) - 1):
                a, b = kept[i], kept[i + 1]
                while not same(orig[j], a): j += 1
                k = j + 1
                while not same(orig[k], b):
                    worst = max(worst, seg(orig[k], a, b)); k += 1
                j = k
            print(len(orig), len(kept), worst)
            """#, [input, output])
        let fields = check.stdout.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(fields.count == 3, "\(check.stdout)\(check.stderr)")
        #expect(fields[1] < fields[0] / 4, "kept \(fields[1]) of \(fields[0])")
        #expect(fields[2] <= 10, "a point is \(fields[2]) m from the simplified line")
    }
}
