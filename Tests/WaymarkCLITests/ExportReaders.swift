import Foundation
import WaymarkTestSupport

/// Independent readers of exported files, in Python: each prints, as JSON, the track's points
/// as the reader sees them, so a test can compare them with the input as gpxpy reads it.
enum ExportReaders {
    /// `check.py ORIGINAL EXPORTED FORMAT TRACKNAME`: reads ORIGINAL with gpxpy and EXPORTED with
    /// every reader that understands FORMAT (gpxpy, GDAL's ogr2ogr, gpsbabel), and prints
    /// `{"expected": n, "readers": {name: {"points": n, "maxError": degrees}}}`. Consecutive
    /// repeated positions are collapsed on both sides (an export writes a one-point segment as
    /// a line from the point to itself).
    static let script = #"""
        import csv, io, json, os, re, subprocess, sys, tempfile
        import xml.etree.ElementTree as ET
        import gpxpy

        original, exported, fmt, name = sys.argv[1:5]

        def collapse(points):
            out = []
            for p in points:
                if not out or out[-1] != p:
                    out.append(p)
            return out

        g = gpxpy.parse(open(original, encoding="utf-8"))
        expected = [(p.latitude, p.longitude) for t in g.tracks for s in t.segments for p in s.points]
        expected += [(p.latitude, p.longitude) for r in g.routes for p in r.points]

        def with_gpxpy(path):
            x = gpxpy.parse(open(path, encoding="utf-8"))
            return [(p.latitude, p.longitude) for t in x.tracks for s in t.segments for p in s.points]

        def with_ogr(path):
            layer = {"gpx": ["tracks"], "kml": ["Track"], "geojson": []}[fmt]
            out = subprocess.run(["ogr2ogr", "-f", "CSV", "/vsistdout/", path] + layer + ["-lco", "GEOMETRY=AS_WKT"],
                                 capture_output=True, text=True, check=True).stdout
            points = []
            for row in csv.DictReader(io.StringIO(out)):
                wkt = row["WKT"]
                if "LINESTRING" not in wkt:
                    continue
                body = wkt[wkt.index("("):].replace("(", " ").replace(")", " ")
                for pair in body.split(","):
                    x, y = pair.split()[:2]
                    points.append((float(y), float(x)))
            return points

        def with_gpsbabel(path):
            with tempfile.TemporaryDirectory() as d:
                target = os.path.join(d, "out.gpx")
                subprocess.run(["gpsbabel", "-i", fmt, "-f", path, "-o", "gpx", "-F", target], check=True, capture_output=True)
                root = ET.parse(target).getroot()
                ns = {"g": root.tag[1:root.tag.index("}")]}
                points = []
                tracks = root.findall("g:trk", ns)
                named = [t for t in tracks if t.findtext("g:name", default="", namespaces=ns) == name]
                # gpsbabel names KML and GPX tracks. From GeoJSON a MultiLineString becomes
                # unnamed tracks (the regions become routes, so every track is the export's)
                # and a LineString a route with the feature's name.
                chosen = named or [t for t in tracks if not t.findtext("g:name", default="", namespaces=ns)]
                if not chosen:
                    chosen = [r for r in root.findall("g:rte", ns) if r.findtext("g:name", default="", namespaces=ns) == name]
                for element in chosen:
                    for p in list(element.iter("{%s}trkpt" % ns["g"])) + list(element.iter("{%s}rtept" % ns["g"])):
                        points.append((float(p.get("lat")), float(p.get("lon"))))
                return points

        readers = {"gpxpy": with_gpxpy, "ogr2ogr": with_ogr, "gpsbabel": with_gpsbabel}
        if fmt != "gpx":
            del readers["gpxpy"]
        want = collapse(expected)
        result = {"expected": len(want), "readers": {}}
        for reader, read in readers.items():
            got = collapse(read(exported))
            error = max((max(abs(a[0] - b[0]), abs(a[1] - b[1])) for a, b in zip(want, got)), default=0.0)
            result["readers"][reader] = {"points": len(got), "maxError": error}
        print(json.dumps(result))
        """#

    struct Reading: Decodable {
        struct Reader: Decodable {
            var points: Int
            var maxError: Double
        }
        var expected: Int
        var readers: [String: Reader]
    }

    static func read(original: String, exported: String, format: String, trackName: String) async throws -> (Reading?, String) {
        let result = try await runPython(script, [original, exported, format, trackName])
        guard result.status == 0 else { return (nil, result.stderr) }
        return (try JSONDecoder().decode(Reading.self, from: Data(result.stdout.utf8)), result.stderr)
    }

    /// The schemas unpacked by scripts/install-dependencies.sh.
    static let schemas = URL(fileURLWithPath: "/usr/local/share/waymark/schemas")

    /// `xmllint --noout --nonet --schema XSD FILE`.
    static func validate(_ file: String, schema: String) async throws -> ProcessResult {
        try await runProcess(
            URL(fileURLWithPath: "/usr/bin/xmllint"),
            ["--noout", "--nonet", "--schema", schemas.appendingPathComponent(schema).path, file])
    }

    /// The style extensions' schemas (Tests/Schemas; their headers say where they come from).
    static let extensionSchemas = ProjectPaths.repositoryRoot.appendingPathComponent("Tests/Schemas")

    /// Validates a styled GPX against GPX 1.1 and the three extension schemas together: GPX's
    /// `extensions` admit other namespaces laxly, so xmllint checks every extension element it
    /// has a schema for, and a schema that imports all four is the way to give it them.
    static func validateStyledGPX(_ file: String, in directory: TemporaryDirectory) async throws -> ProcessResult {
        let imports = [
            ("http://www.topografix.com/GPX/1/1", schemas.appendingPathComponent("Topografix_gpx11.xsd")),
            ("http://www.topografix.com/GPX/gpx_style/0/2", extensionSchemas.appendingPathComponent("gpx_style.xsd")),
            ("http://www.garmin.com/xmlschemas/GpxExtensions/v3", extensionSchemas.appendingPathComponent("GpxExtensionsv3.xsd")),
            ("https://osmand.net", extensionSchemas.appendingPathComponent("osmand.xsd")),
        ].map { "  <xsd:import namespace=\"\($0.0)\" schemaLocation=\"\($0.1.path)\"/>" }
        let driver = try directory.write(
            "styled-gpx.xsd",
            "<?xml version=\"1.0\"?>\n<xsd:schema xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\">\n"
                + imports.joined(separator: "\n") + "\n</xsd:schema>\n")
        return try await runProcess(URL(fileURLWithPath: "/usr/bin/xmllint"), ["--noout", "--nonet", "--schema", driver, file])
    }
}
