import Foundation
import Logging
import Testing
import WaymarkAPI
import WaymarkDaemon
import WaymarkTestSupport

/// Which basemap the page's map draws: the configured tiles or file, else the installed offline
/// basemap when it is there, or nothing with `web.basemap: none` (docs/web.md, "Basemap").
@Suite struct BasemapConfigurationTests {
    private let directory: TemporaryDirectory
    private let installed: String
    private var defaults = DaemonConfiguration(database: "w.sqlite", socketPath: "api.sock")

    init() throws {
        directory = try TemporaryDirectory(prefix: "waymark-basemap-config")
        installed = directory.path("installed.mbtiles")
        defaults.web.installedBasemapFile = installed
    }

    private func web(_ yaml: String) throws(ConfigurationError) -> WebSettings {
        try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: defaults).web
    }

    @Test func theInstalledBasemapIsTheDefaultWhenItIsThere() throws {
        #expect(try web("web:\n  leaflet_directory: /opt/leaflet\n").basemapChoice() == .notInstalled(installed))
        try directory.write("installed.mbtiles", "")
        #expect(try web("web:\n  leaflet_directory: /opt/leaflet\n").basemapChoice() == .installed(installed))
        #expect(try web("log:\n  level: info\n").basemapChoice() == .installed(installed))
        #expect(defaults.web.basemapChoice() == .installed(installed))
    }

    @Test func noneTurnsItOff() throws {
        try directory.write("installed.mbtiles", "")
        let settings = try web("web:\n  basemap: none\n")
        #expect(settings.basemapOff && settings.basemapFile == nil)
        #expect(settings.basemapChoice() == .off)
    }

    @Test func aNamedFileOrTileServerWins() throws {
        try directory.write("installed.mbtiles", "")
        let own = try directory.write("own.mbtiles", "")
        #expect(try web("web:\n  basemap: \(own)\n").basemapChoice() == .file(own))
        #expect(try web("web:\n  tiles: https://t.example/{z}/{x}/{y}.png\n").basemapChoice() == .tiles("https://t.example/{z}/{x}/{y}.png"))
    }

    @Test(
        "a named file that is not there, or none beside tiles, is an error at its line",
        arguments: [
            ("web:\n  leaflet_directory: /x\n  basemap: /nowhere/region.mbtiles\n",
             "waymark.yaml:3:12: web.basemap: no such file: /nowhere/region.mbtiles (an MBTiles file, or none for no basemap)"),
            ("web:\n  basemap: none\n  tiles: https://t/{z}/{x}/{y}\n", "waymark.yaml:3:10: web.tiles: give web.tiles or web.basemap, not both"),
            ("web:\n  tiles: https://t/{z}/{x}/{y}\n  basemap: none\n", "waymark.yaml:3:12: web.basemap: give web.tiles or web.basemap, not both"),
        ])
    func badBasemap(yaml: String, expected: String) {
        do {
            _ = try web(yaml)
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func openingSaysWhichBasemapAndRefusesAFileThatIsNotMBTiles() async throws {
        var settings = defaults.web
        #expect(try await settings.openBasemap(logger: Logger(label: "test")) == nil)
        try directory.write("installed.mbtiles", "not a database")
        do {
            _ = try await settings.openBasemap(logger: Logger(label: "test"))
            Issue.record("opened a file that is not MBTiles")
        } catch {
            #expect("\(error)".contains(installed), "\(error)")
        }
        settings.basemapOff = true
        #expect(try await settings.openBasemap(logger: Logger(label: "test")) == nil)
    }
}
