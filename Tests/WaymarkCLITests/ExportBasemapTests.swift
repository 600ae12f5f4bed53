import Foundation
import Testing
import WaymarkTestSupport

/// `--basemap FILE.mbtiles` under the pictures. The basemap is made by GDAL for the test, as a
/// user would make theirs: a GeoTIFF of one colour over the ride (`gdal_create`), cut into
/// MBTiles by `gdal_translate -of MBTILES`, with an attribution added to its metadata. The
/// pictures are read back by GDAL (pixels, histograms) and as SVG text.
@Suite struct ExportBasemapTests {
    /// The basemap's colour.
    static let colour = (red: 40, green: 120, blue: 200)

    /// A basemap of `format` tiles (PNG or JPEG) over the ride, in `directory`.
    static func basemap(in directory: TemporaryDirectory, format: String = "PNG") async throws -> String {
        let tiff = directory.path("base.tif"), mbtiles = directory.path("base-\(format).mbtiles")
        let created = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/gdal_create"),
            ["-of", "GTiff", "-outsize", "1600", "1200", "-bands", "3", "-burn", "\(colour.red)", "-burn", "\(colour.green)", "-burn", "\(colour.blue)",
             "-a_srs", "EPSG:4326", "-a_ullr", "8.64", "47.39", "8.76", "47.32", tiff])
        try #require(created.status == 0, "\(created.stderr)")
        let tiled = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/gdal_translate"), ["-q", "-of", "MBTILES", "-co", "TILE_FORMAT=\(format)", tiff, mbtiles])
        try #require(tiled.status == 0, "\(tiled.stderr)")
        let attributed = try await runPython(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("INSERT INTO metadata (name, value) VALUES ('attribution', 'Test basemap by GDAL')")
            db.commit()
            """, [mbtiles])
        try #require(attributed.status == 0, "\(attributed.stderr)")
        return mbtiles
    }

    func export(_ format: String, to path: String, basemap: String?) async throws {
        let result = try await runWaymark(
            ["export", "Tracks/lakeside-ride.gpx", "--regions", "Regions", "--format", format, "--width", "600", "-o", path]
                + (basemap.map { ["--basemap", $0] } ?? []))
        try #require(result.status == 0, "\(result.stderr)")
    }

    /// Pixels of the picture whose red is the basemap's, by GDAL's histogram of band 1.
    func basemapRed(_ png: String) async throws -> Int {
        let info = try await runProcess(URL(fileURLWithPath: "/usr/bin/gdalinfo"), ["-hist", "-json", png])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any], "\(info.stderr)")
        let bands = try #require(json["bands"] as? [[String: Any]])
        let buckets = try #require((bands.first?["histogram"] as? [String: Any])?["buckets"] as? [Int])
        return buckets[Self.colour.red]
    }

    @Test func thePictureHasTheBasemapUnderTheRouteAndItsAttribution() async throws {
        let directory = try TemporaryDirectory()
        let basemap = try await Self.basemap(in: directory)
        try await export("svg", to: directory.path("ride.svg"), basemap: basemap)
        try await export("png", to: directory.path("ride.png"), basemap: basemap)
        try await export("png", to: directory.path("plain.png"), basemap: nil)

        let svg = try String(contentsOfFile: directory.path("ride.svg"), encoding: .utf8)
        let images = svg.components(separatedBy: "<image ").count - 1
        #expect(images > 4 && svg.contains(#"<g id="basemap">"#), "\(images) tiles")
        #expect(svg.contains("data:image/png;base64,") && svg.contains(">Test basemap by GDAL</text>"))
        let wellFormed = try await runProcess(URL(fileURLWithPath: "/usr/bin/xmllint"), ["--noout", directory.path("ride.svg")])
        #expect(wellFormed.status == 0, "\(wellFormed.stderr)")

        // Inside the loop, under the map's middle, the basemap's colour; without it, the paper's.
        let clip = try #require(Self.mapClip(svg), "no map clip in the SVG")
        let (x, y) = (Int(clip.x + clip.width / 2), Int(clip.y + clip.height / 2))
        for (file, expected) in [("ride.png", "\(Self.colour.red) \(Self.colour.green) \(Self.colour.blue)"), ("plain.png", "241 240 232")] {
            let pixel = try await runProcess(URL(fileURLWithPath: "/usr/bin/gdallocationinfo"), ["-valonly", directory.path(file), "\(x)", "\(y)"])
            #expect(pixel.stdoutLines.prefix(3).joined(separator: " ") == expected, "\(file) at \(x),\(y): \(pixel.stdout)\(pixel.stderr)")
        }
        let (with, without) = (try await basemapRed(directory.path("ride.png")), try await basemapRed(directory.path("plain.png")))
        #expect(with > 100_000 && without < 2_000, "basemap-red pixels: \(with) with the basemap, \(without) without")
    }

    /// The map's clip rectangle: the first `clipPath`'s `rect`.
    static func mapClip(_ svg: String) -> (x: Double, y: Double, width: Double, height: Double)? {
        guard let start = svg.range(of: #"<clipPath id="clip1"><rect "#) else { return nil }
        let element = svg[start.upperBound...].prefix { $0 != "/" }
        var values: [String: Double] = [:]
        for attribute in element.split(separator: " ") {
            let parts = attribute.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = Double(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) }
        }
        guard let x = values["x"], let y = values["y"], let width = values["width"], let height = values["height"] else { return nil }
        return (x, y, width, height)
    }

    @Test func aBasemapThatCannotBeDrawnIsAClearError() async throws {
        let directory = try TemporaryDirectory()
        let jpeg = try await Self.basemap(in: directory, format: "JPEG")
        let cases: [([String], String)] = [
            (["--format", "png", "--basemap", jpeg], "its tiles are jpg; Waymark draws PNG tiles"),
            (["--format", "png", "--basemap", directory.path("nowhere.mbtiles")], "nowhere.mbtiles: no such file"),
            (["--format", "png", "--basemap", ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path],
             "cannot open the MBTiles file"),
            (["--format", "gpx", "--basemap", jpeg], "--basemap goes with --format svg, png, overlay or kmz"),
        ]
        for (arguments, message) in cases {
            let output = directory.path("out")
            let result = try await runWaymark(["export", "Tracks/lakeside-ride.gpx"] + arguments + ["-o", output])
            #expect(result.status != 0 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output), "nothing written")
        }
    }
}
