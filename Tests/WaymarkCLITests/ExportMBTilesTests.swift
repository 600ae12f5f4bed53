import Foundation
import Testing
import WaymarkTestSupport

/// `--format mbtiles` read back by GDAL (the MBTiles driver: extent, zooms, a pixel under the
/// route), SQLite (the MBTiles 1.3 schema and metadata) and Python (every tile a 256-pixel PNG),
/// against the track's box as gpxpy reads it.
@Suite struct ExportMBTilesTests {
    static let track = "Tracks/lakeside-ride.gpx"

    @Test func theTilesCoverTheTrackAndGDALReadsThem() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("ride.mbtiles")
        let exported = try await runWaymark(["export", Self.track, "--regions", "Regions", "--format", "mbtiles", "--min-zoom", "12", "--max-zoom", "16", "-o", path])
        try #require(exported.status == 0, "\(exported.stderr)")

        let check = try await runPython(
            #"""
            import gpxpy, json, math, sqlite3, struct, sys
            points = [p for t in gpxpy.parse(open(sys.argv[1])).tracks for s in t.segments for p in s.points]
            box = [min(p.longitude for p in points), min(p.latitude for p in points), max(p.longitude for p in points), max(p.latitude for p in points)]
            db = sqlite3.connect(sys.argv[2])
            meta = dict(db.execute("SELECT name, value FROM metadata"))
            bounds = [float(v) for v in meta["bounds"].split(",")]
            pngs = ok = 0
            zooms = {}
            present = set()
            for zoom, column, row, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
                pngs += 1
                present.add((zoom, column, 2 ** zoom - 1 - row))
                zooms[zoom] = zooms.get(zoom, 0) + 1
                if data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (256, 256):
                    ok += 1
            # The loop's middle, over a kilometre from the route and every region: no tile there at
            # zoom 16 (the overlay has only the tiles something crosses), though the start's is there.
            def tile(lon, lat, z):
                n = 2 ** z
                return int((lon + 180) / 360 * n), int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
            middle = (16,) + tile((box[0] + box[2]) / 2, (box[1] + box[3]) / 2, 16)
            first = (16,) + tile(points[0].longitude, points[0].latitude, 16)
            print(json.dumps({"meta": meta, "bounds_error": max(abs(a - b) for a, b in zip(bounds, box)), "tiles": pngs, "png": ok,
                              "zooms": sorted(zooms), "middle": middle in present, "first": first in present,
                              "index": [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")]}))
            """#, [Self.track, path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any], "\(check.stdout)\(check.stderr)")
        let meta = try #require(report["meta"] as? [String: String])
        #expect(meta["format"] == "png" && meta["type"] == "overlay" && meta["minzoom"] == "12" && meta["maxzoom"] == "16", "\(meta)")
        #expect(meta["name"] == "lakeside-ride" && meta["center"]?.hasSuffix(",12") == true, "\(meta)")
        #expect((report["bounds_error"] as? Double ?? 1) < 1e-6, "bounds are the track's: \(report)")
        #expect(report["zooms"] as? [Int] == [12, 13, 14, 15, 16])
        #expect(report["tiles"] as? Int == report["png"] as? Int, "every tile a 256-pixel PNG: \(report)")
        #expect(report["middle"] as? Bool == false && report["first"] as? Bool == true, "only tiles something crosses: \(report)")
        #expect((report["index"] as? [String] ?? []).contains("tile_index"))

        // GDAL: the MBTiles driver, its extent the track's box, and an opaque pixel under the start.
        let info = try await runProcess(URL(fileURLWithPath: "/usr/bin/gdalinfo"), ["-json", path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any], "\(info.stderr)")
        #expect((json["driverShortName"] as? String) == "MBTiles", "\(json["driverShortName"] ?? "-")")
        let ring = ((json["wgs84Extent"] as? [String: Any])?["coordinates"] as? [[[Double]]])?.first ?? []
        let longitudes = ring.map { $0[0] }, latitudes = ring.map { $0[1] }
        #expect(abs((longitudes.min() ?? 0) - 8.6700089) < 1e-4 && abs((latitudes.max() ?? 0) - 47.3719997) < 1e-4, "\(ring)")
        let start = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/gdallocationinfo"), ["-valonly", "-oo", "ZOOM_LEVEL=15", "-wgs84", path, "8.6700161", "47.355972"])
        #expect(start.stdout.split(separator: "\n").last == "255", "alpha under the start: \(start.stdout)\(start.stderr)")
    }

    @Test(arguments: [
        (["--format", "gpx", "--min-zoom", "3", "-o", "x.gpx"], "--min-zoom and --max-zoom go with --format mbtiles"),
        (["--format", "mbtiles", "--min-zoom", "14", "--max-zoom", "12", "-o", "x.mbtiles"], "--min-zoom 14 is deeper than --max-zoom 12"),
        (["--format", "mbtiles", "--max-zoom", "25", "-o", "x.mbtiles"], "--max-zoom must be 0…19, got 25"),
        (["--format", "mbtiles", "-o", "-"], "mbtiles cannot go to standard output"),
    ])
    func badZoomsAndOutputsAreRefused(arguments: [String], message: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await runWaymark(["export", Self.track] + arguments.map { $0.hasPrefix("x.") ? directory.path($0) : $0 })
        #expect(result.status != 0 && result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("x.mbtiles")))
    }
}
