import WaymarkCore

/// What the web page needs from the daemon's configuration (`web:`, docs/configuration.md).
public struct WebSettings: Sendable, Equatable {
    /// Where Leaflet's files are: Debian's libjs-leaflet, installed by the install step.
    public var leafletDirectory = "/usr/share/javascript/leaflet"
    /// A raster tile URL template (`https://tiles.example/{z}/{x}/{y}.png`) drawn under the map;
    /// nil: a plain background, which needs no network.
    public var tiles: String?
    /// Credit for the tiles, shown on the map.
    public var attribution: String?
    /// The tiles' highest zoom.
    public var maximumZoom = 19

    public init() {}

    /// `{"basemap":{"tiles","attribution","maxZoom"}|null}`: what `GET /v1/web` answers.
    var json: String {
        guard let tiles else { return "{\"basemap\":null}" }
        var basemap = JSONObjectWriter()
        basemap.add("tiles", tiles)
        basemap.add("attribution", attribution)
        basemap.add("maxZoom", maximumZoom)
        var w = JSONObjectWriter()
        w.addRaw("basemap", basemap.object)
        return w.object
    }
}
