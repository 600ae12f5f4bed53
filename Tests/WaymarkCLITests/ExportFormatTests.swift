import Foundation
import Testing
import WaymarkTestSupport

/// `waymark export` to GPX, GeoJSON and KML on real tracks: every file validates against its
/// schema where one exists, and independent readers (gpxpy, GDAL's ogr2ogr, gpsbabel) see the
/// input's coordinates within 1e-7 degrees.
@Suite struct ExportFormatTests {
    static let tracks = ["tcxtest.gpx", "cerknicko-jezero.gpx", "endomondo.gpx", "bike~gpx.gpx", "korita-zbevnica.gpx"]

    @Test(arguments: tracks, ["gpx", "geojson", "kml"])
    func independentReadersSeeTheInputsCoordinates(track: String, format: String) throws {
        let directory = try TemporaryDirectory()
        let input = ProjectPaths.sharedData("gpx/" + track).path
        let output = directory.path("export." + format)
        let export = try runWaymark(["export", input, "--format", format, "-o", output])
        try #require(export.status == 0, "\(export.stderr)")
        let (reading, stderr) = try ExportReaders.read(
            original: input, exported: output, format: format, trackName: String(track.dropLast(4)))
        let result = try #require(reading, "readers failed: \(stderr)")
        #expect(result.readers.count >= 2)
        for (reader, seen) in result.readers {
            #expect(seen.points == result.expected, "\(track) \(format): \(reader) read \(seen.points) of \(result.expected) points")
            #expect(seen.maxError <= 1e-7, "\(track) \(format): \(reader) differs by \(seen.maxError)°")
        }
        switch format {
        case "gpx":
            let check = try ExportReaders.validate(output, schema: "Topografix_gpx11.xsd")
            #expect(check.status == 0, "GPX 1.1 schema: \(check.stderr)")
        case "kml":
            let check = try ExportReaders.validate(output, schema: "ogckml22.xsd")
            #expect(check.status == 0, "KML 2.2 schema: \(check.stderr)")
        default:
            break
        }
    }

    /// tcxtest enters Santa Monica Mountains NRA (SAMO) at 13:57:20Z and leaves at 14:18:15Z
    /// (MANIFEST.md, checked with shapely): the export's waypoints, points and placemarks say so.
    @Test func regionTransitionsBecomeWaypointsPointsAndPlacemarks() throws {
        let directory = try TemporaryDirectory()
        let input = ProjectPaths.sharedData("gpx/tcxtest.gpx").path
        let regions = ProjectPaths.sharedData("geojson/ne_10m_parks_and_protected_lands_area.json").path
        for format in ["gpx", "geojson", "kml"] {
            let output = directory.path("samo." + format)
            let export = try runWaymark(["export", input, "--regions", regions, "--id-property", "unit_code", "--format", format, "-o", output])
            try #require(export.status == 0, "\(export.stderr)")
        }
        let gpx = try runPython("""
            import gpxpy, sys
            g = gpxpy.parse(open(sys.argv[1]))
            for w in g.waypoints:
                if w.type in ("enter", "exit"):
                    print(w.type, w.name, w.time.strftime("%H:%M:%S"))
            """, [directory.path("samo.gpx")])
        #expect(gpx.stdoutLines == ["enter Enter SAMO 13:57:20", "exit Exit SAMO 14:18:15"], "\(gpx.stdout)\(gpx.stderr)")
        let geojson = try runProcess(
            URL(fileURLWithPath: "/usr/bin/ogrinfo"),
            ["-ro", "-al", "-q", "-where", "kind IN ('enter','exit')", directory.path("samo.geojson")])
        #expect(geojson.stdout.contains("name (String) = Enter SAMO") && geojson.stdout.contains("2008/08/21 13:57:20"), "\(geojson.stdout)")
        let polygons = try runProcess(
            URL(fileURLWithPath: "/usr/bin/ogrinfo"), ["-ro", "-al", "-q", "-where", "kind = 'region'", directory.path("samo.geojson")])
        #expect(polygons.stdout.components(separatedBy: "OGRFeature").count - 1 == 61)
        let kml = try runProcess(URL(fileURLWithPath: "/usr/bin/ogrinfo"), ["-ro", "-q", directory.path("samo.kml"), "Events"])
        #expect(kml.stdout.contains("Enter SAMO") && kml.stdout.contains("Exit SAMO"), "\(kml.stdout)")
    }

    @Test func simplifiedExportsStayWithinTheToleranceForAnIndependentGeodesic() throws {
        let directory = try TemporaryDirectory()
        let input = ProjectPaths.sharedData("gpx/bikeride.gpx").path
        let output = directory.path("simple.gpx")
        let export = try runWaymark(["export", input, "--simplify", "10", "--format", "gpx", "-o", output])
        try #require(export.status == 0, "\(export.stderr)")
        // geographiclib: every original point within 10 m of the simplified line (nearest point
        // of each geodesic by golden-section search), and far fewer points.
        let check = try runPython(#"""
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
