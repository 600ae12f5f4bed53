import WaymarkCore
import WaymarkRegions

/// Writes a GPX 1.1 document with one track, point by point, into any `TextSink`, so a
/// million-point track is written in constant memory. Valid against the GPX 1.1 schema
/// (the tests check it with `xmllint --schema`).
///
/// Coordinates are written with 7 decimals (about 1 cm), altitudes with 2 (more when the value
/// has them), times in RFC 3339 UTC. Text is XML-escaped. For an export, the overview's
/// statistics go into the metadata and track descriptions and its events become waypoints
/// (GPX 1.1 puts waypoints before tracks, hence the overview first). An export is styled: the
/// track's colour and width and the waypoints' symbols, in the extensions apps read
/// (`GPXStyle`).
public struct GPXWriter<Sink: TextSink>: TrackWriter {
    public private(set) var sink: Sink
    private var segmentOpen = false
    private let styled: Bool

    /// Starts the document and its track.
    public init(sink: Sink, creator: String = "waymark", trackName: String? = nil) throws {
        self.sink = sink
        styled = false
        try self.sink.write(Self.root(creator: creator, styled: false) + " <trk>\n")
        if let trackName { try self.sink.write("  <name>\(XMLText.escape(trackName))</name>\n") }
    }

    /// Starts an export: metadata (name, statistics, bounds), the events as waypoints, then
    /// the track with its name and statistics.
    public init(sink: Sink, creator: String = "waymark", overview: TrackOverview) throws {
        self.sink = sink
        styled = true
        var head = Self.root(creator: creator, styled: true) + " <metadata>\n"
        if let name = overview.name { head += "  <name>\(XMLText.escape(name))</name>\n" }
        head += "  <desc>\(XMLText.escape(overview.statistics.headline))</desc>\n"
        if let bounds = overview.bounds {
            // GPX longitudes are −180…180, so a box over the antimeridian has minlon > maxlon.
            let (west, east) = bounds.westAndEast
            head += "  <bounds minlat=\"\(Decimal7.format(bounds.minLatitude))\" minlon=\"\(Decimal7.format(west))\""
            head += " maxlat=\"\(Decimal7.format(bounds.maxLatitude))\" maxlon=\"\(Decimal7.format(east))\"/>\n"
        }
        head += " </metadata>\n"
        try self.sink.write(head)
        for event in overview.events { try self.sink.write(Self.waypoint(event)) }
        var track = " <trk>\n"
        if let name = overview.name { track += "  <name>\(XMLText.escape(name))</name>\n" }
        track += "  <desc>\(XMLText.escape(overview.statistics.headline))</desc>\n"
        track += GPXStyle.trackExtensions()
        try self.sink.write(track)
    }

    static func root(creator: String, styled: Bool) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="\(XMLText.escape(creator))" xmlns="http://www.topografix.com/GPX/1/1" \
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"\(styled ? GPXStyle.declarations : "") \
        xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd\
        \(styled ? GPXStyle.schemaLocations : "")">\n
        """
    }

    /// `<wpt>` for an event: position, altitude, time, name, description, symbol, type and
    /// OsmAnd's marker colour, in the schema's order.
    static func waypoint(_ event: TrackEvent) -> String {
        var text = " <wpt lat=\"\(Decimal7.format(event.coordinate.latitude))\" lon=\"\(Decimal7.format(event.coordinate.longitude))\">"
        if let altitude = event.altitude, altitude.isFinite { text += "<ele>\(altitudeText(altitude))</ele>" }
        if let time = event.time { text += "<time>\(time.rfc3339)</time>" }
        text += "<name>\(XMLText.escape(event.name))</name><desc>\(XMLText.escape(event.description))</desc>"
        text += "<sym>\(GPXStyle.symbol(for: event.kind))</sym><type>\(XMLText.escape(event.type))</type>"
        text += "<extensions><osmand:color>\(PicturePalette.marker(event.kind).hex)</osmand:color></extensions></wpt>\n"
        return text
    }

    /// Ends the current segment; the next point starts a new one (a gap in the track).
    public mutating func endSegment() throws {
        if segmentOpen { try sink.write("  </trkseg>\n") }
        segmentOpen = false
    }

    public mutating func write(_ fix: Fix, startsSegment: Bool) throws {
        if startsSegment { try endSegment() }
        try write(fix)
    }

    public mutating func write(_ fix: Fix) throws {
        if !segmentOpen {
            try sink.write("  <trkseg>\n")
            segmentOpen = true
        }
        var line = "   <trkpt lat=\"\(Decimal7.format(fix.coordinate.latitude))\" lon=\"\(Decimal7.format(fix.coordinate.longitude))\">"
        if let altitude = fix.altitude, altitude.isFinite { line += "<ele>\(Self.altitudeText(altitude))</ele>" }
        if let time = fix.time { line += "<time>\(time.rfc3339)</time>" }
        if let mode = fix.mode { line += "<fix>\(mode.rawValue)</fix>" }
        if let satellites = fix.satellites { line += "<sat>\(satellites)</sat>" }
        if let hdop = fix.hdop { line += "<hdop>\(Self.dilutionText(hdop))</hdop>" }
        if let vdop = fix.vdop { line += "<vdop>\(Self.dilutionText(vdop))</vdop>" }
        if let pdop = fix.pdop { line += "<pdop>\(Self.dilutionText(pdop))</pdop>" }
        line += "</trkpt>\n"
        try sink.write(line)
    }

    /// Closes the document and flushes the sink.
    public mutating func finish() throws {
        try endSegment()
        try sink.write(" </trk>\n" + (styled ? GPXStyle.documentExtensions : "") + "</gpx>\n")
        try sink.flush()
    }

    /// Two decimals, or up to four when the value has them.
    static func altitudeText(_ altitude: Double) -> String {
        Decimal7.rounded(altitude, 2) == altitude ? Decimal7.format(altitude, decimals: 2) : Decimal7.trimmed(altitude, decimals: 4)
    }

    /// One decimal, or up to three when the value has them.
    static func dilutionText(_ value: Double) -> String {
        Decimal7.rounded(value, 1) == value ? Decimal7.format(value, decimals: 1) : Decimal7.trimmed(value, decimals: 3)
    }
}
