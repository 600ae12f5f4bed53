import WaymarkCore

/// Writes a GPX 1.1 document with one track, point by point, into any `TextSink`, so a
/// million-point track is written in constant memory.
///
/// Coordinates are written with 7 decimals (about 1 cm), altitudes with 2, times in RFC 3339
/// UTC. Text is XML-escaped.
public struct GPXWriter<Sink: TextSink> {
    private var sink: Sink
    private var segmentOpen = false

    /// Starts the document and its track.
    public init(sink: Sink, creator: String = "waymark", trackName: String? = nil) throws {
        self.sink = sink
        try self.sink.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="\(XMLText.escape(creator))" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
             <trk>\n
            """)
        if let trackName { try self.sink.write("  <name>\(XMLText.escape(trackName))</name>\n") }
    }

    /// Ends the current segment; the next point starts a new one (a gap in the track).
    public mutating func endSegment() throws {
        if segmentOpen { try sink.write("  </trkseg>\n") }
        segmentOpen = false
    }

    public mutating func write(_ fix: Fix) throws {
        if !segmentOpen {
            try sink.write("  <trkseg>\n")
            segmentOpen = true
        }
        var line = "   <trkpt lat=\"\(Decimal7.format(fix.coordinate.latitude))\" lon=\"\(Decimal7.format(fix.coordinate.longitude))\">"
        if let altitude = fix.altitude { line += "<ele>\(Decimal7.format(altitude, decimals: 2))</ele>" }
        if let time = fix.time { line += "<time>\(time.rfc3339)</time>" }
        if let mode = fix.mode { line += "<fix>\(mode.rawValue)</fix>" }
        if let satellites = fix.satellites { line += "<sat>\(satellites)</sat>" }
        if let hdop = fix.hdop { line += "<hdop>\(Decimal7.format(hdop, decimals: 1))</hdop>" }
        line += "</trkpt>\n"
        try sink.write(line)
    }

    /// Closes the document and flushes the sink; returns it.
    public consuming func finish() throws -> Sink {
        try endSegment()
        try sink.write(" </trk>\n</gpx>\n")
        try sink.flush()
        return sink
    }
}

/// Fixed-decimal formatting without Foundation's locale-dependent formatters.
enum Decimal7 {
    static func format(_ value: Double, decimals: Int = 7) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(value) }
        let whole = Int64(scaled)
        let integer = whole / Int64(scale)
        var fraction = String(whole % Int64(scale))
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        let sign = value < 0 && whole != 0 ? "-" : ""
        return decimals == 0 ? "\(sign)\(integer)" : "\(sign)\(integer).\(fraction)"
    }
}
