import Foundation
import Testing
import WaymarkAPI
import WaymarkStore
import WaymarkTestSupport

/// The offline basemap scripts/basemap-data.sh installs, read as the daemon serves it (through
/// `MBTilesFile`, rows flipped from TMS): every zoom there, and land and sea where they are.
@Suite struct BasemapDataTests {
    private let installed = WebSettings().installedBasemapFile

    private func open() async throws -> MBTilesFile {
        let path = installed
        guard FileManager.default.fileExists(atPath: path) else {
            throw BasemapTestError("no basemap installed at \(path): run scripts/basemap-data.sh (scripts/install-dependencies.sh does)")
        }
        return try await onOwnThread { try MBTilesFile(path: path) }
    }

    @Test func itHoldsEveryZoomFromTheWorldDownAndNamesItsSource() async throws {
        let file = try await open()
        #expect(file.metadata["format"] == "png")
        #expect(file.metadata["bounds"] == "-180,-85.0511,180,85.0511")
        #expect(file.metadata["name"] != nil)
        let attribution = try #require(file.metadata["attribution"])
        #expect(attribution.hasPrefix("GSHHG ") && attribution.contains("The GMT Team") && attribution.contains("LGPL-3+"), "\(attribution)")
        let zooms = try #require(try file.zoomRange())
        #expect(zooms.lowerBound == 0 && zooms.upperBound >= 4, "\(zooms)")
        for zoom in zooms {
            let last = (1 << zoom) - 1
            for (x, y) in [(0, 0), (last, 0), (0, last), (last, last), (last / 2, last / 2)] {
                let tile = try await file.tile(zoom: zoom, x: x, y: y)
                #expect(tile?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true, "no PNG tile \(zoom)/\(x)/\(y)")
            }
        }
        for x in 0..<4 {
            for y in 0..<4 { #expect(try await file.tile(zoom: 2, x: x, y: y) != nil, "no tile 2/\(x)/\(y)") }
        }
        #expect(try await file.tile(zoom: zooms.upperBound + 1, x: 0, y: 0) == nil)
    }

    @Test(
        "land where land is, water where water is, at zoom 4",
        arguments: [
            ("the Algerian Sahara", 27.0, 2.0, true), ("central Australia", -24.0, 133.0, true), ("Siberia", 62.0, 100.0, true),
            ("the mid-Pacific", 10.0, -150.0, false), ("the mid-Atlantic", 30.0, -40.0, false),
            ("the southern Indian Ocean", -35.0, 80.0, false), ("the Caspian Sea, a lake", 42.0, 50.5, false),
        ])
    func pixels(place: String, latitude: Double, longitude: Double, isLand: Bool) async throws {
        let file = try await open()
        let zoom = 4
        let scale = Double(1 << zoom)
        let x = (longitude + 180) / 360 * scale
        let y = (1 - asinh(tan(latitude * .pi / 180)) / .pi) / 2 * scale
        let png = try #require(try await file.tile(zoom: zoom, x: Int(x), y: Int(y)), "no tile for \(place)")
        let directory = try TemporaryDirectory(prefix: "waymark-basemap-pixel")
        let path = try directory.write("tile.png", bytes: png)
        // GDAL (python3-gdal) decodes the PNG: an independent reader.
        let result = try await runPython(
            "import sys; from osgeo import gdal; d = gdal.Open(sys.argv[1]); "
                + "print(*[int(d.GetRasterBand(b).ReadAsArray(int(sys.argv[2]), int(sys.argv[3]), 1, 1)[0][0]) for b in (1, 2, 3)])",
            [path, String(Int((x - x.rounded(.down)) * 256)), String(Int((y - y.rounded(.down)) * 256))])
        let rgb = result.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(rgb.count == 3, "\(result.stderr)")
        // Land is off-white; sea and lakes a light blue-grey, bluer than red by a clear margin.
        let land = rgb[0] > 235 && rgb[1] > 235
        let water = rgb[0] < 225 && rgb[2] > rgb[0] + 10
        #expect(isLand ? land : water, "\(place): \(rgb)")
    }

    @Test func aBuildFromMissingOrUnreadableDataFailsSayingWhyAndLeavesTheFileAsItWas() async throws {
        let directory = try TemporaryDirectory(prefix: "waymark-basemap-build")
        let target = try directory.write("basemap.mbtiles", "the previous file")
        let unreadable = directory.path("unreadable")
        try FileManager.default.createDirectory(atPath: unreadable, withIntermediateDirectories: true)
        for name in ["GSHHS", "border"] {
            for resolution in ["c", "l", "i"] { try directory.write("unreadable/binned_\(name)_\(resolution).nc", "not netCDF") }
        }
        for (data, message) in [
            (directory.path("missing"), "basemap-data: no GSHHG data in \(directory.path("missing"))"),
            (unreadable, "basemap-data: gmt grdlandmask"),
        ] {
            var environment = ProcessInfo.processInfo.environment
            environment["WAYMARK_BASEMAP_TARGET"] = target
            environment["WAYMARK_BASEMAP_GSHHG"] = data
            let result = try await runProcess(
                ProjectPaths.repositoryRoot.appendingPathComponent("scripts/basemap-data.sh"), [], environment: environment,
                currentDirectory: directory.url)
            #expect(result.status != 0)
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "the previous file")
            #expect(!FileManager.default.fileExists(atPath: target + ".new"))
            #expect(!FileManager.default.fileExists(atPath: target + ".source"))
            #expect(!FileManager.default.fileExists(atPath: directory.path("gmt.history")), "GMT's session file left where the script ran")
        }
    }
}

private struct BasemapTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
