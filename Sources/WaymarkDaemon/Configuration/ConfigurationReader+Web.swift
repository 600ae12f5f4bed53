import Foundation
import WaymarkConfiguration
import WaymarkAPI
import Yams

/// The `web` section (the page at `/`, docs/configuration.md):
///
/// ```yaml
/// web:
///   leaflet_directory: /usr/share/javascript/leaflet   # default: Debian's libjs-leaflet
///   tiles: https://tile.openstreetmap.org/{z}/{x}/{y}.png   # default: none, a plain background
///   attribution: "© OpenStreetMap contributors"
///   max_zoom: 19
///   basemap: /srv/maps/region.mbtiles   # instead of tiles: served by the daemon, offline;
///                                       # default: the installed basemap, if any; none: off
///   page_directory: Sources/WaymarkAPI/Web   # working on the page: its files from here
/// ```
extension ConfigurationReader {
    func web(_ section: Node, over defaults: WebSettings) throws(ConfigurationError) -> WebSettings {
        var settings = WebSettings()
        // Where the installed basemap is, not a key: kept (tests point it elsewhere).
        settings.installedBasemapFile = defaults.installedBasemapFile
        var basemapNode: Node?
        for (key, value) in try mapping(section, key: "web") {
            let field = "web.\(key.string)"
            switch key.string {
            case "leaflet_directory": settings.leafletDirectory = try string(value, key: field)
            case "tiles":
                let template = try string(value, key: field)
                for part in ["{z}", "{x}", "{y}"] where !template.contains(part) {
                    throw error(value, key: field, "a tile URL template names {z}, {x} and {y}; this one has no \(part)")
                }
                // The page's Content-Security-Policy admits images from this origin alone.
                guard SecurityHeaders.imageSource(tileTemplate: template) != nil else {
                    throw error(
                        value, key: field,
                        "the page may load tiles only from the template's own http(s) host (https://tile.example/… or https://{s}.tile.example/…); this one names none")
                }
                settings.tiles = template
            case "attribution": settings.attribution = try string(value, key: field)
            case "max_zoom": settings.maximumZoom = try integer(value, key: field, in: 0...24)
            case "page_directory": settings.pageDirectory = try string(value, key: field)
            case "basemap":
                if settings.tiles != nil { throw error(value, key: field, "give web.tiles or web.basemap, not both") }
                let path = try string(value, key: field)
                if path == "none" {
                    settings.basemapOff = true
                } else {
                    settings.basemapFile = path
                    basemapNode = value
                }
            default: throw unknown(key, in: "web", known: ["leaflet_directory", "tiles", "basemap", "attribution", "max_zoom", "page_directory"])
            }
            if key.string == "tiles" && (settings.basemapFile != nil || settings.basemapOff) {
                throw error(value, key: field, "give web.tiles or web.basemap, not both")
            }
        }
        // A named file that is not there stops the daemon here, at its line, not at the first tile.
        if let basemapNode, let path = settings.basemapFile, !FileManager.default.fileExists(atPath: path) {
            throw error(basemapNode, key: "web.basemap", "no such file: \(path) (an MBTiles file, or none for no basemap)")
        }
        return settings
    }
}
