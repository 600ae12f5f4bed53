import WaymarkCore
import WaymarkSources

/// The timed positions of a KML document (a `.kml` file, or a KMZ's `doc.kml`), in document
/// order, in constant memory but for one track's unpaired times (8 bytes each).
///
/// - A track (`gx:Track`, or KML 2.3's `Track`, also inside a `gx:MultiTrack`) lists `<when>`
///   times and `<gx:coord>` positions (`longitude latitude altitude`); the n-th time goes with
///   the n-th position, in whichever order they are written.
/// - A `Placemark` with a `<TimeStamp><when>` and a `<Point><coordinates>` is one fix.
/// - Positions without a time to the second (a `Point` with no `TimeStamp` or with a
///   `TimeSpan`, a `<when>` that is only a date) are skipped and counted in ``untimedCount``;
///   a `LineString` (no times at all) in ``skippedLineStrings``.
/// - A document with no timed position at all is refused (`unsupported`), saying what it holds.
///
/// Elements are matched by local name, so any namespace prefix works. Styles, descriptions,
/// views (`LookAt`, `Camera`, whose own `TimeStamp` is not the placemark's) and extended data
/// are checked for well-formedness and skipped. After an error every call throws it again.
public struct KMLHistoryReader: HistoryReader, XMLHistoryFormat, Sendable {
    static let root: StaticString = "kml"
    var scanner: XMLScanner
    var state = XMLDocumentState.beforeRoot

    /// Fixes returned so far.
    public private(set) var fixCount = 0
    /// Positions skipped for having no time, or only a date.
    public private(set) var untimedCount = 0
    /// `LineString`s passed over: KML gives their points no times.
    public private(set) var skippedLineStrings = 0
    private var firstLineString: ImportError.Position = .none

    // The open elements the reader acts on, by their depth (nil when not inside one).
    private var placemark: Int?
    private var timeStamp: Int?
    private var point: Int?
    private var track: Int?
    private var placemarkTime: Timestamp?
    private var placemarkPosition: KMLPosition?

    // A track's times and positions not yet paired; one of the two is empty.
    private var times = PendingQueue<Int64>()
    private var positions = PendingQueue<KMLPosition>()
    private var trackTimes = 0
    private var trackPositions = 0
    private static let noTime = Int64.min

    /// Opens the KML file at `path`; `name` is the file's name in errors (a path, or
    /// `archive.kmz:doc.kml`). `bufferSize` is the read size; tests use tiny ones.
    public init(path: String, name: String, bufferSize: Int = 256 * 1024) throws(ImportError) {
        scanner = try XMLScanner.opening(path: path, name: name, bufferSize: bufferSize)
    }

    /// Reads a KML document held in memory.
    public init(bytes: [UInt8], name: String, bufferSize: Int = 256 * 1024) {
        scanner = XMLScanner(source: .memory(bytes), fileName: name, chunkSize: bufferSize)
    }

    public mutating func next() throws(ImportError) -> ImportedItem? { try nextFix().map { .fix($0) } }

    /// Acts on a start tag; returns a fix when a track's time or position completes a pair.
    mutating func open() throws -> Fix? {
        let depth = scanner.depth
        if let track, depth == track + 1 || scanner.selfClosing && depth == track {
            if scanner.isNamed("when") {
                trackTimes += 1
                let time = try scanner.withElementText { text, scanner throws(ImportError) in try kmlTime(text, in: scanner) }
                return pair(time: time?.nanosecondsSince1970 ?? Self.noTime)
            }
            if scanner.isNamed("coord") {
                trackPositions += 1
                let position = try scanner.withElementText { text, scanner throws(ImportError) in
                    try KMLPosition(text, "gx:coord", in: scanner)
                }
                return pair(position: position)
            }
        }
        if scanner.isNamed("Placemark") {
            if !scanner.selfClosing {
                placemark = depth
                placemarkTime = nil
                placemarkPosition = nil
            }
        } else if scanner.isNamed("Track") {
            if !scanner.selfClosing {
                track = depth
                trackTimes = 0
                trackPositions = 0
            }
        } else if scanner.isNamed("LineString") {
            if skippedLineStrings == 0 { firstLineString = scanner.tagPosition }
            skippedLineStrings += 1
            if !scanner.selfClosing { try scanner.skipElement() }
        } else if let placemark, track == nil {
            try openInPlacemark(placemark, depth: depth)
        } else if isSkipped() {
            if !scanner.selfClosing { try scanner.skipElement() }
        }
        return nil
    }

    /// A start tag inside a placemark, outside a track: its time stamp and point.
    private mutating func openInPlacemark(_ placemark: Int, depth: Int) throws {
        if scanner.isNamed("TimeStamp"), depth == placemark + 1, !scanner.selfClosing {
            timeStamp = depth
        } else if let timeStamp, depth == timeStamp + 1 || scanner.selfClosing && depth == timeStamp,
            scanner.isNamed("when")
        {
            placemarkTime = try scanner.withElementText { text, scanner throws(ImportError) in try kmlTime(text, in: scanner) }
        } else if scanner.isNamed("Point"), !scanner.selfClosing {
            point = depth
        } else if let point, depth == point + 1 || scanner.selfClosing && depth == point,
            scanner.isNamed("coordinates")
        {
            let position = try scanner.withElementText { text, scanner throws(ImportError) in
                try KMLPosition(text, "coordinates", in: scanner)
            }
            if placemarkPosition == nil { placemarkPosition = position }
        } else if isSkipped() {
            if !scanner.selfClosing { try scanner.skipElement() }
        }
    }

    /// Elements that hold no position the reader keeps, skipped whole.
    private func isSkipped() -> Bool {
        scanner.isNamed("Style") || scanner.isNamed("StyleMap") || scanner.isNamed("description")
            || scanner.isNamed("ExtendedData") || scanner.isNamed("LookAt") || scanner.isNamed("Camera")
            || scanner.isNamed("Polygon") || scanner.isNamed("Model") || scanner.isNamed("Snippet")
            || scanner.isNamed("Region") || scanner.isNamed("TimeSpan")
    }

    /// Closes the tracked elements that the end tag just read closed.
    mutating func close() throws -> Fix? {
        let depth = scanner.depth
        if let timeStamp, depth < timeStamp { self.timeStamp = nil }
        if let point, depth < point { self.point = nil }
        if let track, depth < track {
            self.track = nil
            try closeTrack()
        }
        if let placemark, depth < placemark {
            self.placemark = nil
            if let position = placemarkPosition {
                placemarkPosition = nil
                if let time = placemarkTime {
                    fixCount += 1
                    return position.fix(at: time)
                }
                untimedCount += 1
            }
        }
        return nil
    }

    private mutating func closeTrack() throws {
        defer {
            times.removeAll()
            positions.removeAll()
        }
        guard trackTimes == trackPositions else {
            throw ImportError(
                .invalidValue,
                "this track has \(trackTimes) <when> but \(trackPositions) <gx:coord>; KML pairs them one to one",
                file: scanner.fileName, position: scanner.tagPosition)
        }
    }

    private mutating func pair(time: Int64) -> Fix? {
        if let position = positions.pop() { return timed(position, time) }
        times.push(time)
        return nil
    }

    private mutating func pair(position: KMLPosition) -> Fix? {
        if let time = times.pop() { return timed(position, time) }
        positions.push(position)
        return nil
    }

    private mutating func timed(_ position: KMLPosition, _ time: Int64) -> Fix? {
        guard time != Self.noTime else {
            untimedCount += 1
            return nil
        }
        fixCount += 1
        return position.fix(at: Timestamp(nanosecondsSince1970: time))
    }

    /// At the end of a document that gave no fix: why, and what to export instead.
    func finish() throws {
        guard fixCount == 0 else { return }
        var found: [String] = []
        if skippedLineStrings > 0 {
            found.append("\(skippedLineStrings) LineString\(skippedLineStrings == 1 ? "" : "s") (KML gives a LineString's points no times)")
        }
        if untimedCount > 0 {
            found.append("\(untimedCount) position\(untimedCount == 1 ? "" : "s") without a time to the second")
        }
        let holds = found.isEmpty ? "no position at all" : found.joined(separator: " and ")
        throw ImportError(
            .unsupported,
            "no timed position: the document holds \(holds); a history needs times, so export the track as a "
                + "gx:Track (with <when>) or as GPX",
            file: scanner.fileName, position: skippedLineStrings > 0 ? firstLineString : .none)
    }
}
