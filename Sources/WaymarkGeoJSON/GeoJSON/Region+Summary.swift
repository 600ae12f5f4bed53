import WaymarkCore
import WaymarkRegions

extension Region {
    /// One region's summary, as `GET /v1/regions` lists it and `waymark regions list` prints
    /// it (a line each): identifier, kind, the circle's centre and radius (metres), the polygon
    /// count or the beacon identity, the feature's properties, and the options it is monitored
    /// with, defaults filled in (`effectiveOptionsJSON`).
    public var summaryJSON: String {
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
        w.addRaw("options", effectiveOptionsJSON())
        return w.object
    }
}
