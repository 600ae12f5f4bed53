import Testing
import WaymarkAPI
import WaymarkDaemon

/// The `web` section: where Leaflet is, and an optional basemap for the page's map.
@Suite struct WebConfigurationTests {
    private let defaults = DaemonConfiguration(database: "w.sqlite", socketPath: "api.sock")

    private func parse(_ yaml: String) throws(ConfigurationError) -> DaemonConfiguration {
        try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: defaults)
    }

    @Test func defaultsAreDebiansLeafletAndAPlainBackground() {
        #expect(defaults.web.leafletDirectory == "/usr/share/javascript/leaflet")
        #expect(defaults.web.tiles == nil)
    }

    @Test func aBasemapIsATileTemplateWithItsCredit() throws {
        let web = try parse(
            "web:\n  leaflet_directory: /opt/leaflet\n  tiles: https://t.example/{z}/{x}/{y}.png\n  attribution: \"© them\"\n  max_zoom: 17\n").web
        #expect(web.leafletDirectory == "/opt/leaflet")
        #expect(web.tiles == "https://t.example/{z}/{x}/{y}.png")
        #expect(web.attribution == "© them")
        #expect(web.maximumZoom == 17)
    }

    @Test(
        "bad keys and values name the key and line",
        arguments: [
            ("web:\n  tiles: https://t.example/{z}/{x}.png\n", "waymark.yaml:2:10: web.tiles: a tile URL template names {z}, {x} and {y}; this one has no {y}"),
            ("web:\n  tiles: //t.example/{z}/{x}/{y}.png\n", "waymark.yaml:2:10: web.tiles: the page may load tiles only from the template's own http(s) host"),
            ("web:\n  max_zoom: 30\n", "waymark.yaml:2:13: web.max_zoom"),
            ("web:\n  colour: blue\n", "waymark.yaml:2:3: web.colour: unknown key"),
            ("web: yes\n", "waymark.yaml:1:6: web: must be a mapping"),
            ("web:\n  tiles: https://t/{z}/{x}/{y}\n  basemap: /x.mbtiles\n", "waymark.yaml:3:12: web.basemap: give web.tiles or web.basemap, not both"),
            ("web:\n  basemap: /x.mbtiles\n  tiles: https://t/{z}/{x}/{y}\n", "waymark.yaml:3:10: web.tiles: give web.tiles or web.basemap, not both"),
        ])
    func badSection(yaml: String, expected: String) {
        do {
            _ = try parse(yaml)
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.description.hasPrefix(expected), "\(error)")
        }
    }
}
