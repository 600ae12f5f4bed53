import WaymarkCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the points of a GPX 1.0 or 1.1 document one at a time, in document order, in
/// constant memory.
///
/// The file is read through a fixed-size buffer (256 KiB unless told otherwise) by a
/// hand-written XML scanner: no DOM, no entity expansion (a DOCTYPE declaring entities is
/// refused), no network. Elements are matched by local name, so any namespace prefix works.
/// Track points (`trk/trkseg/trkpt`), route points (`rte/rtept`) and waypoints (`wpt`) are
/// returned; everything else (`metadata`, `extensions`, unknown elements) is checked for
/// well-formedness and skipped, except a point's accuracy extension (``GPXAccuracy``).
///
/// Malformed input throws a ``GPXError`` with the file, line and column; after an error every
/// further call throws the same error. A reader is a value: a copy continues independently
/// (for files it reads with `pread`, so copies do not share a file position). The file is
/// closed when the last copy is released. Copies may be sent to other tasks, as arrays can.
public struct GPXReader: Sendable {
    /// The default read size: 256 KiB.
    public static let defaultBufferSize = 256 * 1024

    private var scanner: XMLScanner
    private var state = State.document
    private var failure: GPXError?
    private var trackIndex = -1
    private var segmentIndex = -1
    private var routeIndex = -1
    /// The document's recorder writes metres into `hdop` (``GPXAccuracy``).
    private var hdopInMetres = false

    /// The `trk` elements read so far, including empty ones.
    public var trackCount: Int { trackIndex + 1 }
    /// The `rte` elements read so far, including empty ones.
    public var routeCount: Int { routeIndex + 1 }

    /// The document's GPX version, known once the root element has been read (after the first
    /// call to ``nextPoint()``); `nil` if the document declares neither a version nor a GPX
    /// namespace.
    public private(set) var version: GPXVersion?

    /// The name used in error locations: the path, or the name given with the bytes.
    public var fileName: String { scanner.fileName }

    private enum State { case document, gpx, track, segment, route, done }

    /// Opens the GPX file at `path`. Throws ``GPXError`` with code `openFailed` if it cannot.
    /// - Parameter bufferSize: bytes per read; tests use tiny sizes so every token straddles
    ///   two reads.
    public init(path: String, bufferSize: Int = GPXReader.defaultBufferSize) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw GPXError(
                code: .openFailed, message: "cannot open: \(reason)",
                location: SourceLocation(file: path, line: 1, column: 1))
        }
        scanner = XMLScanner(
            source: .file(FileDescriptor(rawValue: descriptor)), fileName: path, chunkSize: bufferSize)
    }

    /// Reads a document held in memory; `name` appears in error locations.
    public init(bytes: [UInt8], name: String, bufferSize: Int = GPXReader.defaultBufferSize) {
        scanner = XMLScanner(source: .memory(bytes), fileName: name, chunkSize: bufferSize)
    }

    /// The next track point, route point or waypoint, or `nil` at the end of the document.
    public mutating func nextPoint() throws -> GPXPoint? {
        if let failure { throw failure }
        do {
            return try readNextPoint()
        } catch let error as GPXError {
            failure = error
            throw error
        }
    }

    private mutating func readNextPoint() throws -> GPXPoint? {
        if state == .document { try readRoot() }
        while true {
            if state == .done { return nil }
            switch try scanner.nextMarkup() {
            case .endOfInput:
                // Only reachable after the root element closed; the scanner reports truncation.
                state = .done
                return nil
            case .end:
                switch state {
                case .gpx:
                    state = .done
                    _ = try scanner.nextMarkup()  // only comments and whitespace may follow
                case .track: state = .gpx
                case .segment: state = .track
                case .route: state = .gpx
                case .document, .done: break
                }
            case .start:
                let element = scanner.element
                let closed = scanner.selfClosing
                switch (state, element) {
                case (.gpx, .trk):
                    trackIndex += 1
                    segmentIndex = -1
                    if !closed { state = .track }
                case (.gpx, .rte):
                    routeIndex += 1
                    if !closed { state = .route }
                case (.track, .trkseg):
                    segmentIndex += 1
                    if !closed { state = .segment }
                case (.gpx, .wpt):
                    return try readPoint(.waypoint)
                case (.segment, .trkpt):
                    return try readPoint(.trackPoint)
                case (.route, .rtept):
                    return try readPoint(.routePoint)
                default:
                    if !closed { try scanner.skipElement() }
                }
            }
        }
    }

    private mutating func readRoot() throws {
        try scanner.start()
        _ = try scanner.nextMarkup()  // a start tag: anything else throws
        guard scanner.element == .gpx else {
            throw scanner.error(.notGPX, "the root element is <\(scanner.currentName)>, not <gpx>", at: scanner.tagStart)
        }
        var namespaceVersion: GPXVersion?
        for attribute in scanner.attributes {
            let name = UnsafeBufferPointer(
                start: scanner.base + attribute.nameStart, count: attribute.nameEnd - attribute.nameStart)
            let value = scanner.quoted(attribute.valueStart, attribute.valueEnd)
            if name.elementsEqual("version".utf8) {
                guard let declared = GPXVersion(rawValue: value) else {
                    throw scanner.error(
                        .unsupportedVersion, "GPX version \"\(value)\" is not supported; expected 1.0 or 1.1",
                        at: attribute.valueStart)
                }
                version = declared
            } else if name.elementsEqual("creator".utf8) {
                hdopInMetres = GPXAccuracy.writesMetresAsHDOP(creator: value)
            } else if name.starts(with: "xmlns".utf8) {
                if value == "http://www.topografix.com/GPX/1/0" { namespaceVersion = .v1_0 }
                if value == "http://www.topografix.com/GPX/1/1" { namespaceVersion = .v1_1 }
            }
        }
        if version == nil { version = namespaceVersion }
        state = scanner.selfClosing ? .done : .gpx
        if scanner.selfClosing { _ = try scanner.nextMarkup() }
    }

    private mutating func readPoint(_ kind: GPXPoint.Kind) throws -> GPXPoint {
        var latitude: XMLScanner.Attribute?
        var longitude: XMLScanner.Attribute?
        for attribute in scanner.attributes {
            let length = attribute.nameEnd - attribute.nameStart
            guard length == 3 else { continue }
            let p = scanner.base + attribute.nameStart
            if p[0] == UInt8(ascii: "l") {
                if p[1] == UInt8(ascii: "a") && p[2] == UInt8(ascii: "t") { latitude = attribute }
                if p[1] == UInt8(ascii: "o") && p[2] == UInt8(ascii: "n") { longitude = attribute }
            }
        }
        guard let latitude else {
            throw scanner.error(.missingAttribute, "<\(scanner.currentName)> has no lat attribute", at: scanner.tagStart)
        }
        guard let longitude else {
            throw scanner.error(.missingAttribute, "<\(scanner.currentName)> has no lon attribute", at: scanner.tagStart)
        }
        let lat = try number(of: latitude, "lat")
        guard (-90...90).contains(lat) else {
            throw scanner.error(
                .latitudeOutOfRange,
                "latitude \(scanner.quoted(latitude.valueStart, latitude.valueEnd)) is outside -90…90",
                at: latitude.valueStart)
        }
        let lon = try number(of: longitude, "lon")
        guard (-180...180).contains(lon) else {
            throw scanner.error(
                .longitudeOutOfRange,
                "longitude \(scanner.quoted(longitude.valueStart, longitude.valueEnd)) is outside -180…180",
                at: longitude.valueStart)
        }
        var point = GPXPoint(kind: kind, fix: Fix(time: nil, coordinate: Coordinate(latitude: lat, longitude: lon)))
        switch kind {
        case .trackPoint:
            point.track = trackIndex
            point.segment = segmentIndex
        case .routePoint:
            point.route = routeIndex
        case .waypoint:
            break
        }
        if scanner.selfClosing { return point }

        while true {
            switch try scanner.nextMarkup() {
            case .end, .endOfInput:
                if point.fix.horizontalAccuracy == nil {
                    point.fix.horizontalAccuracy = GPXAccuracy.fromHDOP(point.fix.hdop, inMetres: hdopInMetres)
                }
                return point
            case .start:
                let element = scanner.element
                let closed = scanner.selfClosing
                if element == .extensions, !closed {
                    try readExtensions(into: &point)
                    continue
                }
                guard element.isPointField else {
                    if !closed { try scanner.skipElement() }
                    continue
                }
                if closed { continue }  // `<ele/>`: no value
                try scanner.readText()
                try read(element, into: &point)
            }
        }
    }

    /// Reads a point's `<extensions>`, at any depth, for an accuracy (``GPXAccuracy``), through
    /// its end tag.
    private mutating func readExtensions(into point: inout GPXPoint) throws {
        let level = scanner.depth
        while scanner.depth >= level {
            guard try scanner.nextMarkup() == .start, scanner.element == .accuracy, !scanner.selfClosing else {
                continue
            }
            try scanner.readText()
            try read(.accuracy, into: &point)
        }
    }

    /// Parses the text just read by the scanner into the field `element` of `point`.
    private func read(_ element: GPXElement, into point: inout GPXPoint) throws {
        try scanner.text.withUnsafeBufferPointer { whole in
            var from = 0
            var to = whole.count
            while from < to, isWhitespace(whole[from]) { from += 1 }
            while to > from, isWhitespace(whole[to - 1]) { to -= 1 }
            let text = UnsafeBufferPointer(rebasing: whole[from..<to])
            if text.isEmpty { return }  // `<ele></ele>`: no value
            // Computed only on failure: it counts the buffer's newlines.
            var location: SourceLocation { scanner.location(atOffset: scanner.textStartOffset) }
            func fail(_ code: GPXError.Code, _ reason: String) -> GPXError {
                var shown = String(decoding: text.prefix(60), as: UTF8.self)
                if text.count > 60 { shown += "…" }
                return GPXError(code: code, message: "\(element.name) \"\(shown)\" \(reason)", location: location)
            }
            func decimal() throws -> Double {
                guard let value = DecimalParser.parse(text) else { throw fail(.badNumber, "is not a number") }
                return value
            }
            switch element {
            case .ele: point.fix.altitude = try decimal()
            case .hdop: point.fix.hdop = try decimal()
            case .accuracy:
                let metres = try decimal()
                guard metres.isFinite, metres >= 0, metres <= GPXAccuracy.largest else {
                    throw fail(.badValue, "is not an accuracy: expected metres from 0 to 100000")
                }
                // 0 is what recorders write when the platform gave no accuracy.
                if metres > 0 { point.fix.horizontalAccuracy = metres }
            case .vdop: point.fix.vdop = try decimal()
            case .pdop: point.fix.pdop = try decimal()
            case .speed: point.fix.speed = try decimal()
            case .course: point.fix.course = try decimal()
            case .sat:
                guard let count = DecimalParser.parseCount(text) else {
                    throw fail(.badNumber, "is not a whole number of satellites")
                }
                point.fix.satellites = count
            case .time:
                guard let time = Timestamp(rfc3339: text) else {
                    throw fail(.badTime, "is not an RFC 3339 date and time such as 2019-10-22T14:36:00Z")
                }
                point.fix.time = time
            case .fix:
                guard let mode = FixMode(rawValue: String(decoding: text, as: UTF8.self)) else {
                    throw fail(.badValue, "is not one of none, 2d, 3d, dgps, pps")
                }
                point.fix.mode = mode
            case .name:
                guard let name = String(validating: text, as: UTF8.self) else {
                    throw GPXError(code: .invalidUTF8, message: "the name is not valid UTF-8", location: location)
                }
                point.name = name
            default:
                break
            }
        }
    }

    /// The value of a `lat` or `lon` attribute as a number.
    private mutating func number(of attribute: XMLScanner.Attribute, _ name: String) throws -> Double {
        // xsd:decimal collapses whitespace, so ` 46.5 ` is 46.5.
        func parseTrimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
            var from = 0
            var to = bytes.count
            while from < to, isWhitespace(bytes[from]) { from += 1 }
            while to > from, isWhitespace(bytes[to - 1]) { to -= 1 }
            return DecimalParser.parse(UnsafeBufferPointer(rebasing: bytes[from..<to]))
        }
        let value: Double?
        if attribute.hasReference {
            try scanner.decodeValue(attribute)
            value = scanner.text.withUnsafeBufferPointer { parseTrimmed($0) }
        } else {
            value = parseTrimmed(
                UnsafeBufferPointer(
                    start: scanner.base + attribute.valueStart, count: attribute.valueEnd - attribute.valueStart))
        }
        guard let value else {
            throw scanner.error(
                .badNumber, "\(name) \"\(scanner.quoted(attribute.valueStart, attribute.valueEnd))\" is not a number",
                at: attribute.valueStart)
        }
        return value
    }
}

/// The GPX elements the reader acts on, by local name.
enum GPXElement: Equatable, Sendable {
    case gpx, trk, trkseg, trkpt, rte, rtept, wpt
    case ele, time, hdop, vdop, pdop, sat, fix, name, speed, course
    /// A point's `<extensions>`, and the accuracy elements read inside it.
    case extensions, accuracy
    case other

    /// Children of a point whose text the reader keeps.
    var isPointField: Bool {
        switch self {
        case .ele, .time, .hdop, .vdop, .pdop, .sat, .fix, .name, .speed, .course, .accuracy: true
        default: false
        }
    }

    var name: String { "\(self)" }

    /// The element whose local name is the `n` bytes at `p`.
    init(localName p: UnsafePointer<UInt8>, count n: Int) {
        func equals(_ literal: StaticString) -> Bool {
            n == literal.utf8CodeUnitCount && memcmp(p, literal.utf8Start, n) == 0
        }
        guard n >= 3 else {
            self = .other
            return
        }
        switch p[0] {
        case UInt8(ascii: "t"):
            self = equals("trkpt") ? .trkpt : equals("time") ? .time : equals("trk") ? .trk
                : equals("trkseg") ? .trkseg : .other
        case UInt8(ascii: "e"): self = equals("ele") ? .ele : equals("extensions") ? .extensions : .other
        case UInt8(ascii: "a"): self = equals("accuracy") ? .accuracy : .other
        case UInt8(ascii: "r"): self = equals("rtept") ? .rtept : equals("rte") ? .rte : .other
        case UInt8(ascii: "w"): self = equals("wpt") ? .wpt : .other
        case UInt8(ascii: "g"): self = equals("gpx") ? .gpx : .other
        case UInt8(ascii: "h"):
            self = equals("hdop") ? .hdop : equals("hacc") || equals("horizontalAccuracy") ? .accuracy : .other
        case UInt8(ascii: "v"): self = equals("vdop") ? .vdop : .other
        case UInt8(ascii: "p"): self = equals("pdop") ? .pdop : .other
        case UInt8(ascii: "s"): self = equals("sat") ? .sat : equals("speed") ? .speed : .other
        case UInt8(ascii: "f"): self = equals("fix") ? .fix : .other
        case UInt8(ascii: "n"): self = equals("name") ? .name : .other
        case UInt8(ascii: "c"): self = equals("course") ? .course : .other
        default: self = .other
        }
    }
}

extension XMLScanner {
    /// The GPX element of the current start tag.
    var element: GPXElement {
        GPXElement(localName: base + localNameStart, count: nameEnd - localNameStart)
    }
}
