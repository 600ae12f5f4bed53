import WaymarkCore
import WaymarkRegions

/// Writes a GeoJSON (RFC 7946) FeatureCollection, streaming the track's points:
/// - the track: one Feature, a LineString (one segment) or MultiLineString (several), with the
///   statistics as properties (`kind: "track"`); positions are `[longitude, latitude]`, with
///   the altitude third when every point has one. A one-point segment is written as a line
///   from the point to itself, so no point is lost. Where a step crosses the antimeridian the
///   line is cut (§3.1.9): it ends on the meridian it leaves by (±180°) and a new line starts
///   on the opposite one, at the interpolated latitude and altitude (`AntimeridianCrossing`);
///   the overview counts these cuts, so the track is then a MultiLineString.
/// - each event: a Point Feature with `kind` (`enter`, `exit`, `arrival`, `departure`,
///   `significantChange`, …), `name`, `description`, `time`, `region`.
/// - each region: a Polygon or MultiPolygon Feature (`kind: "region"`, `id` the region's
///   identifier), rings oriented by the right-hand rule; a circle as a 72-gon with its
///   `center` and `radius`; the source feature's properties under `sourceProperties`.
///
/// Numbers are written in the shortest form that reads back as the same `Double`, so
/// coordinates survive exactly. A region's outline across the antimeridian is cut there too
/// (`RegionOutline.cutAtAntimeridian`).
public struct GeoJSONWriter<Sink: TextSink>: TrackWriter {
    public private(set) var sink: Sink
    private let overview: TrackOverview
    private let threeD: Bool
    /// Whether the track is a MultiLineString: several segments, or one cut at the antimeridian.
    private let multiLine: Bool
    private var segmentPoints = 0
    private var lastPosition = ""
    /// The point before this one in its segment, to find where the line crosses the antimeridian.
    private var previous: Fix?

    public init(sink: Sink, overview: TrackOverview) throws {
        self.sink = sink
        self.overview = overview
        self.threeD = overview.allPointsHaveAltitude
        self.multiLine = overview.isMultiSegment || overview.statistics.antimeridianCrossings > 0
        var head = "{\"type\":\"FeatureCollection\""
        if let bounds = overview.bounds {
            // West > east over the antimeridian (RFC 7946 §5.2).
            let (west, east) = bounds.westAndEast
            head += ",\"bbox\":[\(Self.number(west)),\(Self.number(bounds.minLatitude)),\(Self.number(east)),\(Self.number(bounds.maxLatitude))]"
        }
        head += ",\"features\":[\n"
        var properties = JSONObjectWriter()
        properties.add("kind", "track")
        properties.add("name", overview.name)
        properties.add("summary", overview.statistics.headline)
        properties.addRaw("statistics", overview.statistics.json)
        if !overview.initialRegions.isEmpty { properties.add("startsInside", overview.initialRegions) }
        head += "{\"type\":\"Feature\",\"properties\":\(properties.object),\"geometry\":"
        if overview.statistics.points == 0 {
            head += "null}"
        } else {
            head += "{\"type\":\"\(multiLine ? "MultiLineString" : "LineString")\",\"coordinates\":["
        }
        try self.sink.write(head)
    }

    public mutating func write(_ fix: Fix, startsSegment: Bool) throws {
        var text = ""
        if startsSegment || previous == nil {
            if previous != nil { text += closeSegment() + "," }
            if multiLine { text += "[" }
            segmentPoints = 0
        } else if multiLine, let previous, let crossing = AntimeridianCrossing(from: previous.coordinate, to: fix.coordinate) {
            // A crossing the overview did not count (`--simplify` can make one near a pole by
            // dropping points) leaves a LineString whole: the type is already written.
            let altitude = previous.altitude.flatMap { a in fix.altitude.map { a + crossing.fraction * ($0 - a) } }
            text += "," + position(crossing.leaving, altitude) + "],[" + position(crossing.entering, altitude)
            segmentPoints = 1
        }
        previous = fix
        lastPosition = position(fix.coordinate, fix.altitude)
        text += (segmentPoints == 0 ? "" : ",") + lastPosition
        segmentPoints += 1
        try sink.write(text)
    }

    /// Ends a segment's coordinates; a one-point segment repeats its point.
    private func closeSegment() -> String {
        var text = segmentPoints == 1 ? "," + lastPosition : ""
        if multiLine { text += "]" }
        return text
    }

    public mutating func finish() throws {
        if overview.statistics.points > 0 { try sink.write((previous != nil ? closeSegment() : "") + "]}}") }
        for event in overview.events { try sink.write(",\n" + eventFeature(event)) }
        for region in overview.regions { try sink.write(",\n" + Self.regionFeature(region)) }
        try sink.write("\n]}\n")
        try sink.flush()
    }

    private func position(_ coordinate: Coordinate, _ altitude: Double?) -> String {
        var text = "[" + Self.number(coordinate.longitude) + "," + Self.number(coordinate.latitude)
        // JSON has no infinity or NaN (a database from before issue 48 may hold them): such an
        // altitude is left out, which GeoJSON allows position by position.
        if threeD, let altitude, altitude.isFinite { text += "," + Self.number(altitude) }
        return text + "]"
    }

    private func eventFeature(_ event: TrackEvent) -> String {
        var properties = JSONObjectWriter()
        properties.add("kind", event.type)
        properties.add("name", event.name)
        properties.add("description", event.description)
        properties.add("time", event.time?.rfc3339)
        if let region = event.region { properties.add("region", region) }
        if let altitude = event.altitude { properties.add("altitude", altitude) }
        return "{\"type\":\"Feature\",\"properties\":\(properties.object),\"geometry\":{\"type\":\"Point\",\"coordinates\":"
            + "[\(Self.number(event.coordinate.longitude)),\(Self.number(event.coordinate.latitude))]}}"
    }

    static func regionFeature(_ region: Region) -> String {
        var properties = JSONObjectWriter()
        properties.add("kind", "region")
        properties.add("region", region.identifier)
        if case .circle(let center, let radius) = region.shape {
            properties.addRaw("center", "[\(number(center.longitude)),\(number(center.latitude))]")
            properties.add("radius", radius)
        }
        if let source = region.propertiesJSON { properties.addRaw("sourceProperties", source) }
        let polygons = RegionOutline.polygons(of: region).flatMap(RegionOutline.cutAtAntimeridian).map { rings in
            "[" + rings.map { ring in "[" + ring.map { "[\(number($0.longitude)),\(number($0.latitude))]" }.joined(separator: ",") + "]" }
                .joined(separator: ",") + "]"
        }
        let geometry = polygons.count == 1
            ? "{\"type\":\"Polygon\",\"coordinates\":\(polygons[0])}"
            : "{\"type\":\"MultiPolygon\",\"coordinates\":[\(polygons.joined(separator: ","))]}"
        return "{\"type\":\"Feature\",\"id\":\(JSONObjectWriter.quoted(region.identifier)),\"properties\":\(properties.object),\"geometry\":\(geometry)}"
    }

    static func number(_ value: Double) -> String { JSONObjectWriter.number(value) }
}
