import WaymarkCore

/// A day overlay as a GeoJSON (RFC 7946) FeatureCollection: each stop a Point (`kind: "stay"`,
/// `name`, `description`, `arrival`, `departure`, `open`), each trip a LineString (`kind: "trip"`,
/// `name`, `description`, `mode`, `colour`, `start`, `end`, `distance` m, `duration` s, `open`),
/// and `stroke` / `marker-color` in the simplestyle convention so viewers that honour it
/// (geojson.io, GitHub) draw the trips in their mode's colour. Positions `[longitude, latitude]`.
public enum DayOverlayGeoJSON {
    public static func document(_ overlay: DayOverlay) -> String {
        var head = "{\"type\":\"FeatureCollection\""
        if let bounds = overlay.bounds {
            let (west, east) = bounds.westAndEast
            head += ",\"bbox\":[\(number(west)),\(number(bounds.minLatitude)),\(number(east)),\(number(bounds.maxLatitude))]"
        }
        var collection = JSONObjectWriter()
        collection.add("name", overlay.name)
        if let attribution = overlay.attribution { collection.add("attribution", attribution) }
        head += ",\"properties\":\(collection.object),\"features\":["
        let features = overlay.stops.map(stopFeature) + overlay.legs.map(legFeature)
        return head + features.joined(separator: ",\n") + "]}\n"
    }

    private static func stopFeature(_ stop: DayOverlay.Stop) -> String {
        var properties = JSONObjectWriter()
        properties.add("kind", "stay")
        properties.add("name", stop.name)
        properties.add("description", stop.description)
        properties.add("arrival", stop.arrival.rfc3339)
        properties.add("departure", stop.departure.rfc3339)
        properties.add("open", stop.open)
        properties.add("marker-color", PicturePalette.visit.hex)
        let point = "{\"type\":\"Point\",\"coordinates\":\(position(stop.coordinate))}"
        return "{\"type\":\"Feature\",\"properties\":\(properties.object),\"geometry\":\(point)}"
    }

    private static func legFeature(_ leg: DayOverlay.Leg) -> String {
        var properties = JSONObjectWriter()
        properties.add("kind", "trip")
        properties.add("name", leg.name)
        properties.add("description", leg.description)
        properties.add("mode", leg.mode)
        properties.add("start", leg.start.rfc3339)
        properties.add("end", leg.end.rfc3339)
        properties.add("distance", leg.distance)
        properties.add("duration", leg.duration)
        properties.add("open", leg.open)
        properties.add("stroke", leg.colour.hex)
        properties.add("stroke-width", PicturePalette.routeWidth)
        // A one-point trip (two fixes at one place) is a line from the point to itself.
        let path = leg.path.count == 1 ? [leg.path[0], leg.path[0]] : leg.path
        let line = path.isEmpty ? "null" : "{\"type\":\"LineString\",\"coordinates\":[\(path.map(position).joined(separator: ","))]}"
        return "{\"type\":\"Feature\",\"properties\":\(properties.object),\"geometry\":\(line)}"
    }

    private static func position(_ coordinate: Coordinate) -> String { "[\(number(coordinate.longitude)),\(number(coordinate.latitude))]" }

    private static func number(_ value: Double) -> String { JSONObjectWriter.number(value) }
}
