import WaymarkCore
import WaymarkRegions

/// Writes a KML 2.2 document, streaming the track's points (valid against OGC's KML 2.2
/// schema; the tests check it with `xmllint --schema`):
/// - folder *Track*: one Placemark styled `#track` (a red 4-pixel line), a LineString per
///   segment (in a MultiGeometry when there are several), with the statistics as
///   `ExtendedData` and the time span;
/// - folder *Events*: a Placemark per event with its time, description and an icon per kind;
/// - folder *Regions*: a Placemark per region, a Polygon (MultiGeometry for several) with
///   holes as inner boundaries, circles as 72-gons.
///
/// Coordinates are `longitude,latitude[,altitude]` with up to 9 decimals (exact for any
/// input of that precision); a one-point segment is a line from the point to itself.
public struct KMLWriter<Sink: TextSink>: TrackWriter {
    public private(set) var sink: Sink
    private let overview: TrackOverview
    private var segmentPoints = 0
    private var lastTuple = ""
    private var anyPoint = false

    /// `embedding`: the document goes into a KMZ, with its icons and overlay beside it.
    public init(sink: Sink, overview: TrackOverview, embedding: KMLEmbedding? = nil) throws {
        self.sink = sink
        self.overview = overview
        let statistics = overview.statistics
        var head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\">\n<Document>\n"
        head += " <name>\(XMLText.escape(overview.name ?? "Track"))</name>\n"
        head += " <description>\(XMLText.escape(statistics.headline))</description>\n"
        if let embedding {
            head += KMLStyle.definitions { id, _ in KMLEmbedding.iconPath(id) }
            if let frame = embedding.overlay {
                head += " <GroundOverlay>\n  <name>Overlay</name>\n  <Icon><href>\(KMLEmbedding.overlayPath)</href></Icon>\n"
                head += "  " + Georeference.latLonBox(for: frame) + "\n </GroundOverlay>\n"
            }
        } else {
            head += KMLStyle.definitions()
        }
        head += " <Folder>\n  <name>Track</name>\n  <Placemark>\n   <name>\(XMLText.escape(overview.name ?? "Track"))</name>\n"
        head += "   <description>\(XMLText.escape(statistics.headline))</description>\n"
        if let start = statistics.startTime, let end = statistics.endTime {
            head += "   <TimeSpan><begin>\(start.rfc3339)</begin><end>\(end.rfc3339)</end></TimeSpan>\n"
        }
        head += "   <styleUrl>#track</styleUrl>\n   <ExtendedData>\n"
        for (label, value) in statistics.table {
            head += "    <Data name=\"\(XMLText.escape(label))\"><value>\(XMLText.escape(value))</value></Data>\n"
        }
        head += "   </ExtendedData>\n"
        if overview.isMultiSegment { head += "   <MultiGeometry>\n" }
        try self.sink.write(head)
    }

    public mutating func write(_ fix: Fix, startsSegment: Bool) throws {
        var text = ""
        if startsSegment || !anyPoint {
            if anyPoint { text += closeSegment() }
            text += "   <LineString><tessellate>1</tessellate><coordinates>"
            segmentPoints = 0
        }
        anyPoint = true
        lastTuple = Self.tuple(fix.coordinate, overview.allPointsHaveAltitude ? fix.altitude : nil)
        text += (segmentPoints == 0 ? "" : " ") + lastTuple
        segmentPoints += 1
        try sink.write(text)
    }

    private func closeSegment() -> String {
        (segmentPoints == 1 ? " " + lastTuple : "") + "</coordinates></LineString>\n"
    }

    public mutating func finish() throws {
        var tail = anyPoint ? closeSegment() : ""
        if overview.isMultiSegment { tail += "   </MultiGeometry>\n" }
        tail += "  </Placemark>\n </Folder>\n"
        try sink.write(tail)
        if !overview.events.isEmpty {
            try sink.write(" <Folder>\n  <name>Events</name>\n")
            for event in overview.events { try sink.write(Self.placemark(event)) }
            try sink.write(" </Folder>\n")
        }
        if !overview.regions.isEmpty {
            try sink.write(" <Folder>\n  <name>Regions</name>\n")
            for region in overview.regions { try sink.write(Self.placemark(region)) }
            try sink.write(" </Folder>\n")
        }
        try sink.write("</Document>\n</kml>\n")
        try sink.flush()
    }

    static func placemark(_ event: TrackEvent) -> String {
        var text = "  <Placemark>\n   <name>\(XMLText.escape(event.name))</name>\n"
        text += "   <description>\(XMLText.escape(event.description))</description>\n"
        if let time = event.time { text += "   <TimeStamp><when>\(time.rfc3339)</when></TimeStamp>\n" }
        text += "   <styleUrl>\(KMLStyle.url(for: event))</styleUrl>\n"
        text += "   <ExtendedData><Data name=\"kind\"><value>\(XMLText.escape(event.type))</value></Data>"
        if let region = event.region { text += "<Data name=\"region\"><value>\(XMLText.escape(region))</value></Data>" }
        text += "</ExtendedData>\n"
        text += "   <Point><coordinates>\(tuple(event.coordinate, nil))</coordinates></Point>\n  </Placemark>\n"
        return text
    }

    static func placemark(_ region: Region) -> String {
        var text = "  <Placemark>\n   <name>\(XMLText.escape(region.identifier))</name>\n"
        text += "   <styleUrl>#region</styleUrl>\n"
        let polygons = RegionOutline.polygons(of: region)
        if polygons.count > 1 { text += "   <MultiGeometry>\n" }
        for rings in polygons {
            text += "   <Polygon><tessellate>1</tessellate><outerBoundaryIs><LinearRing><coordinates>"
            text += ring(rings[0]) + "</coordinates></LinearRing></outerBoundaryIs>"
            for hole in rings.dropFirst() {
                text += "<innerBoundaryIs><LinearRing><coordinates>" + ring(hole) + "</coordinates></LinearRing></innerBoundaryIs>"
            }
            text += "</Polygon>\n"
        }
        if polygons.count > 1 { text += "   </MultiGeometry>\n" }
        return text + "  </Placemark>\n"
    }

    private static func ring(_ ring: [Coordinate]) -> String {
        ring.map { tuple($0, nil) }.joined(separator: " ")
    }

    static func tuple(_ coordinate: Coordinate, _ altitude: Double?) -> String {
        var text = Decimal7.trimmed(coordinate.longitude, decimals: 9) + "," + Decimal7.trimmed(coordinate.latitude, decimals: 9)
        if let altitude, altitude.isFinite { text += "," + Decimal7.trimmed(altitude, decimals: 3) }  // no "nan" in a tuple
        return text
    }
}
