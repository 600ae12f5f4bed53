import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions

extension Region {
    /// The summary `GET /v1/regions` lists: identifier, kind, the circle's centre and radius
    /// (metres) or the polygon count, and the feature's properties.
    var summaryJSON: String {
        var w = JSONObjectWriter()
        w.add("identifier", identifier)
        switch shape {
        case .circle(let center, let radius):
            w.add("kind", "circle")
            var c = JSONObjectWriter()
            c.add("latitude", center.latitude)
            c.add("longitude", center.longitude)
            w.addRaw("center", c.object)
            w.add("radius", radius)
        case .polygons(let polygons):
            w.add("kind", "polygons")
            w.add("polygonCount", polygons.count)
        case .beacon(let beacon):
            w.add("kind", "beacon")
            w.addRaw("beacon", beacon.json)
        }
        w.addRaw("properties", propertiesJSON ?? "null")
        return w.object
    }
}
