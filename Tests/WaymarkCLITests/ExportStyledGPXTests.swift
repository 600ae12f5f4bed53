import Foundation
import Testing
import WaymarkTestSupport

/// A GPX export styles its track and waypoints for the apps that read GPX styles (docs/export.md,
/// "Styled GPX"): it validates against GPX 1.1 with the gpx_style, Garmin and OsmAnd extension
/// schemas together, gpxpy finds every style where each app looks for it, and gpsbabel, which
/// reads Garmin's DisplayColor, carries the track's colour into the KML it writes.
@Suite struct ExportStyledGPXTests {
    static let track = ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path
    static let regions = ProjectPaths.repositoryRoot.appendingPathComponent("Regions/lakeside.geojson").path

    static func export(_ directory: TemporaryDirectory) async throws -> String {
        let output = directory.path("ride.gpx")
        let export = try await runWaymark(["export", track, "--regions", regions, "--format", "gpx", "-o", output])
        try #require(export.status == 0, "\(export.stderr)")
        return output
    }

    @Test func theStyledExportIsValidAndEveryAppFindsItsStyle() async throws {
        let directory = try TemporaryDirectory()
        let output = try await Self.export(directory)
        let check = try await ExportReaders.validateStyledGPX(output, in: directory)
        #expect(check.status == 0, "\(check.stderr)")

        let read = try await runPython(
            """
            import gpxpy, json, sys
            g = gpxpy.parse(open(sys.argv[1], encoding="utf-8"))
            def tag(e): return e.tag.split("}")[1] if "}" in e.tag else e.tag
            def ns(e): return e.tag[1:e.tag.index("}")]
            def flat(elements):
                out = {}
                for e in elements:
                    for x in e.iter():
                        if x.text and x.text.strip():
                            out[ns(x) + " " + tag(x)] = x.text.strip()
                return out
            print(json.dumps({
                "track": flat(g.tracks[0].extensions),
                "document": flat(g.extensions),
                "waypoints": sorted({(w.type, w.symbol, flat(w.extensions).get("https://osmand.net color")) for w in g.waypoints}),
            }))
            """, [output])
        try #require(read.status == 0, "\(read.stderr)")
        let styles = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        let track = try #require(styles["track"] as? [String: String])
        #expect(track["http://www.topografix.com/GPX/gpx_style/0/2 color"] == "D7301F")
        #expect(track["http://www.topografix.com/GPX/gpx_style/0/2 width"] == "0.93")
        #expect(track["https://osmand.net color"] == "#d7301f")
        #expect(track["https://osmand.net width"] == "7")
        #expect(track["http://www.garmin.com/xmlschemas/GpxExtensions/v3 DisplayColor"] == "Red")
        #expect(styles["document"] as? [String: String] == ["https://osmand.net color": "#d7301f", "https://osmand.net width": "7"])
        let waypoints = try #require(styles["waypoints"] as? [[String]])
        #expect(waypoints == [
            ["arrival", "Flag, Blue", "#2c7fb8"], ["departure", "Pin, Blue", "#2c7fb8"], ["enter", "Flag, Green", "#1a9850"],
            ["exit", "Flag, Red", "#b2182b"], ["significantChange", "Waypoint", "#4d4d4d"],
        ])
    }

    /// The schemas are not a formality: an export altered the ways apps would not take fails,
    /// and xmllint names the element and line.
    @Test(arguments: [
        ("<gpxx:DisplayColor>Red<", "<gpxx:DisplayColor>Crimson<", "DisplayColor"),
        ("<gpx_style:color>D7301F<", "<gpx_style:color>#D7301F<", "{http://www.topografix.com/GPX/gpx_style/0/2}color"),
        ("<osmand:width>7<", "<osmand:width>30<", "{https://osmand.net}width"),
        ("<sym>Flag, Green</sym><type>enter</type>", "<type>enter</type><sym>Flag, Green</sym>", "sym"),
    ])
    func whatAnAppWouldNotTakeFailsValidation(original: String, altered: String, named: String) async throws {
        let directory = try TemporaryDirectory()
        let output = try await Self.export(directory)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains(original))
        let bad = try directory.write("bad.gpx", text.replacingOccurrences(of: original, with: altered))
        let check = try await ExportReaders.validateStyledGPX(bad, in: directory)
        #expect(check.status != 0)
        #expect(check.stderr.contains("bad.gpx:") && check.stderr.contains(named), "\(check.stderr)")
    }

    @Test func gpsbabelCarriesGarminsColourIntoKML() async throws {
        let directory = try TemporaryDirectory()
        let output = try await Self.export(directory)
        let kml = directory.path("babel.kml")
        let babel = try await runProcess(URL(fileURLWithPath: "/usr/bin/gpsbabel"), ["-i", "gpx", "-f", output, "-o", "kml", "-F", kml])
        try #require(babel.status == 0, "\(babel.stderr)")
        let text = try String(contentsOfFile: kml, encoding: .utf8)
        // KML colours are aabbggrr: opaque red, Garmin's "Red", on the track's LineString.
        let placemark = try #require(text.range(of: "<LineString>").map { text[..<$0.lowerBound].suffix(300) })
        #expect(placemark.contains("<color>ff0000ff</color>"), "\(placemark)")
    }
}
