import WaymarkCore
import WaymarkRegions

extension Region {
    /// The region as a GeoJSON Feature (RFC 7946) that `POST /v1/regions` reads back to the same
    /// region: a circle is a Point with `properties.radius` in metres; one polygon a Polygon,
    /// several a MultiPolygon; a beacon region has `geometry: null` and `properties.beacon`.
    /// `id` is the identifier.
    public var geoJSONFeature: String {
        var geometry = JSONObjectWriter()
        var properties = propertiesJSON ?? "{}"
        switch shape {
        case .beacon(let beacon):
            var w = JSONObjectWriter()
            w.add("type", "Feature")
            w.add("id", identifier)
            w.addRaw("geometry", "null")
            w.addRaw("properties", Self.adding("beacon", beacon.json, to: properties))
            return w.object
        case .circle(let center, let radius):
            geometry.add("type", "Point")
            geometry.addRaw("coordinates", Self.position(center))
            properties = Self.adding("radius", JSONObjectWriter.number(radius), to: properties)
        case .polygons(let polygons) where polygons.count == 1:
            geometry.add("type", "Polygon")
            geometry.addRaw("coordinates", Self.rings(polygons[0]))
        case .polygons(let polygons):
            geometry.add("type", "MultiPolygon")
            geometry.addRaw("coordinates", "[" + polygons.map(Self.rings).joined(separator: ",") + "]")
        }
        var w = JSONObjectWriter()
        w.add("type", "Feature")
        w.add("id", identifier)
        w.addRaw("geometry", geometry.object)
        w.addRaw("properties", properties)
        return w.object
    }

    /// `regions` as a GeoJSON FeatureCollection, a feature per line, that the region loader
    /// reads back to the same regions (`regions generate`, `bench regions --write-data`).
    public static func featureCollection(_ regions: [Region]) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[\n" + regions.map(\.geoJSONFeature).joined(separator: ",\n") + "\n]}\n"
    }

    private static func position(_ c: Coordinate) -> String {
        "[" + JSONObjectWriter.number(c.longitude) + "," + JSONObjectWriter.number(c.latitude) + "]"
    }

    private static func rings(_ polygon: Polygon) -> String {
        let rings = [polygon.exterior] + polygon.holes
        return "[" + rings.map { "[" + $0.map(position).joined(separator: ",") + "]" }.joined(separator: ",") + "]"
    }

    /// `properties` with a member `key` (JSON text `value`): as stored when it has one, else
    /// with it prepended.
    private static func adding(_ key: String, _ value: String, to properties: String) -> String {
        let member = JSONObjectWriter.quoted(key) + ":" + value
        guard let node = try? JSONParser.parse(Array(properties.utf8)), case .object(let members) = node.value else {
            return "{" + member + "}"
        }
        if members.contains(where: { $0.key == key }) { return properties }
        let rest = properties.drop(while: { $0 != "{" }).dropFirst()
        let separator = members.isEmpty ? "" : ","
        return "{" + member + separator + rest
    }
}

extension BeaconIdentity {
    /// `{"uuid":…,"major":…,"minor":…}`, major and minor null when any.
    public var json: String {
        var w = JSONObjectWriter()
        w.add("uuid", uuid.description)
        w.add("major", major.map(Double.init))
        w.add("minor", minor.map(Double.init))
        return w.object
    }
}
