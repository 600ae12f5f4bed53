import WaymarkCore
import WaymarkStore

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
    /// An MBTiles file of raster tiles the daemon serves itself (`GET /v1/tiles/{z}/{x}/{y}`)
    /// as the basemap: offline, the user's own. Instead of `tiles`.
    public var basemapFile: String?
    /// `web.basemap: none`: no basemap at all, not even the installed one.
    public var basemapOff = false
    /// The offline basemap scripts/basemap-data.sh installs, drawn when the configuration names
    /// neither `tiles` nor `basemap` and the file exists (`basemapChoice`).
    public var installedBasemapFile = "/usr/local/share/waymark/basemap.mbtiles"
    /// For working on the page: its own files (`index.html`, `app.js`…) served from this
    /// directory, read at each request, instead of the copies compiled into the binary, so an
    /// edit shows on a reload (docs/web.md, "Working on the page"). Nil in use.
    public var pageDirectory: String?

    public init() {}

    /// `{"basemap":{"tiles","attribution","maxZoom"}|null}`: what `GET /v1/web` answers; with an
    /// MBTiles basemap, its own tiles, credit and zoom.
    func json(basemap file: MBTilesFile?) -> String {
        let template = file != nil ? "/v1/tiles/{z}/{x}/{y}" : tiles
        guard let template else { return "{\"basemap\":null}" }
        var basemap = JSONObjectWriter()
        basemap.add("tiles", template)
        basemap.add("attribution", file.map { $0.metadata["attribution"] } ?? attribution)
        basemap.add("maxZoom", file?.maximumZoom ?? maximumZoom)
        var w = JSONObjectWriter()
        w.addRaw("basemap", basemap.object)
        return w.object
    }
}
