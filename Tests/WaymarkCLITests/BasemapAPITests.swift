import Foundation
import Testing
import WaymarkTestSupport

/// `web.basemap`: the user's own MBTiles file served by the daemon as the web page's basemap.
/// The file is made here by GDAL (`gdal_create`, `gdal_translate -of MBTILES`), not committed.
@Suite struct BasemapAPITests {
    static let curl = URL(fileURLWithPath: "/usr/bin/curl")

    /// A one-colour raster over a corner of Zurich as MBTiles (zoom 10, one tile).
    static func basemap(in directory: TemporaryDirectory) async throws -> String {
        let tiff = directory.path("base.tif")
        let mbtiles = directory.path("base.mbtiles")
        let made = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/gdal_create"),
            ["-q", "-of", "GTiff", "-outsize", "256", "256", "-bands", "3", "-burn", "200", "-burn", "120", "-burn", "40",
             "-a_srs", "EPSG:4326", "-a_ullr", "8.5", "47.5", "8.7", "47.3", tiff])
        try #require(made.status == 0, "\(made.stderr)")
        let translated = try await runProcess(URL(fileURLWithPath: "/usr/bin/gdal_translate"), ["-q", "-of", "MBTILES", tiff, mbtiles])
        try #require(translated.status == 0, "\(translated.stderr)")
        return mbtiles
    }

    @Test func theDaemonServesTheFilesTilesInTheWebMapsScheme() async throws {
        let directory = try TemporaryDirectory()
        let mbtiles = try await Self.basemap(in: directory)
        let config = try directory.write("waymark.yaml", "web:\n  basemap: \(mbtiles)\n")
        let socket = directory.path("api.sock")
        let daemon = try BackgroundProcess.waymark(
            ["serve", "--config", config, "--gpsd", "127.0.0.1:9", "--db", directory.path("w.sqlite"), "--socket", socket])
        try await daemon.whileRunning {
            #expect(try await BackgroundProcess.waitUntil(timeout: 30) { unixSocketAccepts(path: socket) })
            func get(_ path: String, _ output: String = "/dev/null") async throws -> String {
                try await runProcess(Self.curl, ["-s", "--unix-socket", socket, "-o", output, "-w", "%{http_code} %{content_type}", "http://localhost" + path]).stdout
            }
            let web = try await runProcess(Self.curl, ["-s", "--unix-socket", socket, "http://localhost/v1/web"]).stdout
            #expect(web == #"{"basemap":{"tiles":"/v1/tiles/{z}/{x}/{y}","attribution":null,"maxZoom":10}}"#, "\(web)")
            // The file's one tile: TMS row 665 at zoom 10 is XYZ row 1023 - 665 = 358.
            let tile = directory.path("tile.png")
            #expect(try await get("/v1/tiles/10/536/358", tile) == "200 image/png")
            let same = try await runPython(
                "import sqlite3, sys; blob = sqlite3.connect(sys.argv[1]).execute('SELECT tile_data FROM tiles').fetchone()[0]; "
                    + "print(open(sys.argv[2], 'rb').read() == blob and len(blob) > 0)",
                [mbtiles, tile])
            #expect(same.stdout == "True\n", "the tile served is not the file's: \(same.stdout)\(same.stderr)")
            #expect(try await get("/v1/tiles/10/536/665") == "204 ", "the file's own TMS row is not an XYZ row")
            #expect(try await get("/v1/tiles/3/1/1") == "204 ")
            #expect(try await get("/v1/tiles/ten/536/358").hasPrefix("400"))
        }
    }

    @Test func aFileThatIsNotMBTilesStopsTheDaemonNamingIt() async throws {
        let directory = try TemporaryDirectory()
        let notTiles = try directory.write("notes.mbtiles", "not a database")
        let config = try directory.write("waymark.yaml", "web:\n  basemap: \(notTiles)\n")
        let result = try await runWaymark(
            ["serve", "--config", config, "--gpsd", "127.0.0.1:9", "--db", directory.path("w.sqlite"), "--socket", directory.path("api.sock")])
        #expect(result.status != 0)
        #expect(result.stderr.contains(notTiles), "\(result.stderr)")
    }
}
