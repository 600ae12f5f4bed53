/// Reads the JSON family of location histories as one stream of items: Google's `Records.json`,
/// Semantic Location History months, Android's `Timeline.json`, iOS's `location-history.json`,
/// `Timeline Edits.json`, GeoJSON, and Overland's batches (docs/import/google-and-geojson.md).
///
/// It walks the top-level value without building it: each item of the document's item arrays is
/// buffered alone, decoded by the decoder its shape calls for, and let go. Other top-level keys
/// are skipped. The keys and the items' shape say which history it is (`shape`); a document with
/// no known key in its first MiB fails at once with `unknownFormat`.
public struct JSONHistoryReader: HistoryReader {
    /// The history the document turned out to be; nil until its keys or first item said (and
    /// for good when its arrays are empty).
    public private(set) var shape: JSONHistoryShape?
    /// Positions left out because a real export holds them routinely unusable: an entry without
    /// coordinates or without a time, a GeoJSON feature without a timed position.
    public var skipped: Int { sink.skipped }
    /// GeoJSON lines skipped for having no times (part of `skipped`).
    public var untimedLines: Int { sink.untimedLines }

    /// How far into a document a known key must have begun.
    public static let detectionWindow = 1 << 20

    private var scanner: JSONItemScanner
    private let sink = JSONItemSink()
    private var returned = 0
    private var state = State.start
    /// The document's top-level keys, for the message when none is known.
    private var keys: [String] = []
    /// Whether the document has shown a key (or a bare array) of a history it may be.
    private var recognised = false
    /// The parts of a document that is a single GeoJSON Feature.
    private var feature: GeoJSONFeatureDecoder.Feature?

    private enum State {
        case start
        case members(first: Bool)
        case items(ItemKind, first: Bool, bare: Bool)
        case end
        case done
    }

    enum ItemKind {
        case records, feature, semantic, segment, signal, edit, skip
        /// The first item says: `locations` holds Records entries or Overland features; a bare
        /// array holds iOS segments, features or Records entries.
        case sniffLocations, sniffBare
    }

    public init(input: ImportInput) {
        scanner = JSONItemScanner(input: input)
    }

    public mutating func next() throws(ImportError) -> ImportedItem? {
        while true {
            if returned < sink.items.count {
                returned += 1
                return sink.items[returned - 1]
            }
            if returned > 0 {
                sink.items.removeAll(keepingCapacity: true)
                returned = 0
            }
            switch state {
            case .start: try start()
            case .members(let first): try member(first: first)
            case .items(let kind, let first, let bare): try item(kind, first: first, bare: bare)
            case .end: try finish()
            case .done: return nil
            }
        }
    }

    private func unknown(_ message: String) -> ImportError { Self.unknown(message, file: scanner.input.name) }

    private static func unknown(_ message: String, file: String) -> ImportError {
        ImportError(.unknownFormat, "not a location history Waymark reads: \(message)", file: file)
    }

    private var withinWindow: Int { max(Self.detectionWindow - scanner.offset, 1) }

    private func noKnownKey() -> ImportError { Self.noKnownKey(keys: keys, file: scanner.input.name) }

    private static func noKnownKey(keys: [String], file: String) -> ImportError {
        let seen = keys.isEmpty ? "no key" : "keys " + keys.prefix(12).joined(separator: ", ")
        return unknown(
            "a JSON object with \(seen) in its first MiB; none is one of Google's (locations, timelineObjects, "
                + "semanticSegments, rawSignals, timelineEdits) or GeoJSON's (type, features, geometry)", file: file)
    }

    // MARK: Steps

    private mutating func start() throws(ImportError) {
        let window = withinWindow
        let name = scanner.input.name
        let first: UInt8? = try scanner.attempt(limit: window, tooLong: { Self.unknown("no JSON value in the first MiB", file: name) }) {
            (cursor: inout JSONCursor) throws(JSONStop) -> UInt8? in
            if cursor.base == 0, cursor.bytes.count >= 3, cursor.bytes[0] == 0xEF, cursor.bytes[1] == 0xBB, cursor.bytes[2] == 0xBF {
                cursor.i = 3
            }
            cursor.skipWhitespace()
            guard cursor.i < cursor.bytes.count else {
                if cursor.complete { return nil }
                throw JSONStop.needMore
            }
            let byte = cursor.bytes[cursor.i]
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { cursor.i += 1 }
            return byte
        }
        switch first {
        case nil: throw unknown("the file is empty")
        case UInt8(ascii: "{"): state = .members(first: true)
        case UInt8(ascii: "["):
            recognised = true
            state = .items(.sniffBare, first: true, bare: true)
        case let byte?:
            throw unknown("JSON history starts with '{' or '[', this file with \(JSONCursor.describe(byte))")
        }
    }

    private enum Member {
        case close
        case items(ItemKind, String)
        case skipped(String)
        case type(String?)
        case featurePart(String)
    }

    private mutating func member(first: Bool) throws(ImportError) {
        let saved = feature ?? GeoJSONFeatureDecoder.Feature()
        var part = saved
        let known = recognised
        let (seen, name) = (keys, scanner.input.name)
        let step = try scanner.attempt(
            limit: known ? JSONItemScanner.maximumItemBytes : withinWindow, tooLong: { Self.noKnownKey(keys: seen, file: name) }
        ) {
            (cursor: inout JSONCursor) throws(JSONStop) -> Member in
            part = saved
            var next = try cursor.peek()
            if next == UInt8(ascii: "}") {
                cursor.i += 1
                return .close
            }
            if !first {
                guard next == UInt8(ascii: ",") else { throw cursor.syntax("expected ',' or '}' after a value, found \(cursor.describe(next))") }
                cursor.i += 1
                next = try cursor.peek()
            }
            guard next == UInt8(ascii: "\"") else { throw cursor.syntax("expected a key in quotes, found \(cursor.describe(next))") }
            let key = JSONKey(try cursor.rawString())
            try cursor.expect(UInt8(ascii: ":"), "':' after a key")
            let kind: ItemKind
            switch key {
            case "locations": kind = .sniffLocations
            case "timelineObjects": kind = .semantic
            case "semanticSegments": kind = .segment
            case "rawSignals": kind = .signal
            case "timelineEdits": kind = .edit
            case "features": kind = .feature
            case "type":
                if try cursor.peek() == UInt8(ascii: "\"") { return .type(try cursor.string()) }
                kind = .skip
            case "geometry":
                part.at = cursor.mark()
                try GeoJSONFeatureDecoder.geometry(&cursor, into: &part)
                return .featurePart(key.text)
            case "properties":
                try GeoJSONFeatureDecoder.properties(&cursor, into: &part)
                return .featurePart(key.text)
            default: kind = .skip
            }
            guard try cursor.peek() == UInt8(ascii: "[") else {
                try cursor.skipValue()
                return .skipped(key.text)
            }
            cursor.i += 1
            return .items(kind, key.text)
        }
        state = .members(first: false)
        switch step {
        case .close: state = .end
        case .items(let kind, let key):
            keys.append(key)
            state = .items(kind, first: true, bare: false)
            recognised = recognised || kind != .skip
            switch kind {
            case .semantic: shape = .semanticLocationHistory
            case .segment, .signal: shape = .androidTimeline
            case .edit: shape = .timelineEdits
            case .feature: shape = .geoJSON
            default: break
            }
        case .skipped(let key): keys.append(key)
        case .type(let type):
            keys.append("type")
            if type == "FeatureCollection" || type == "Feature" {
                shape = .geoJSON
                recognised = true
            }
        case .featurePart(let key):
            keys.append(key)
            feature = part
            shape = .geoJSON
            recognised = true
        }
        if !recognised && scanner.offset > Self.detectionWindow { throw noKnownKey() }
    }

    private mutating func item(_ kind: ItemKind, first: Bool, bare: Bool) throws(ImportError) {
        var kind = kind
        if kind == .sniffLocations || kind == .sniffBare {
            guard let sniffed = try sniff(locations: kind == .sniffLocations) else {
                // An empty array: nothing to read in it.
                state = .items(.skip, first: true, bare: bare)
                return
            }
            kind = sniffed
        }
        let sink = self.sink
        let snapshot = sink.snapshot
        let more = try scanner.item { (cursor: inout JSONCursor) throws(JSONStop) -> Bool in
            sink.restore(snapshot)
            let next = try cursor.peek()
            if next == UInt8(ascii: "]") {
                cursor.i += 1
                return false
            }
            if !first {
                guard next == UInt8(ascii: ",") else { throw cursor.syntax("expected ',' or ']' after an item, found \(cursor.describe(next))") }
                cursor.i += 1
            }
            switch kind {
            case .records: try GoogleRecordsDecoder.decode(&cursor, into: sink)
            case .feature: try GeoJSONFeatureDecoder.decode(&cursor, into: sink)
            case .semantic: try SemanticLocationHistoryDecoder.decode(&cursor, into: sink)
            case .segment: try TimelineSegmentDecoder.decode(&cursor, into: sink)
            case .signal: try PositionSignalDecoder.decodeSignal(&cursor, into: sink)
            case .edit: try PositionSignalDecoder.decodeEdit(&cursor, into: sink)
            case .skip, .sniffLocations, .sniffBare: try cursor.skipValue()
            }
            return true
        }
        if more {
            state = .items(kind, first: false, bare: bare)
            if !recognised && scanner.offset > Self.detectionWindow { throw noKnownKey() }
        } else {
            state = bare ? .end : .members(first: false)
        }
    }

    /// The kind of the array's items, from the first one's keys; nil for an empty array.
    private mutating func sniff(locations: Bool) throws(ImportError) -> ItemKind? {
        let keys = try scanner.item(consume: false) { (cursor: inout JSONCursor) throws(JSONStop) -> [String]? in
            let next = try cursor.peek()
            if next == UInt8(ascii: "]") { return nil }
            guard next == UInt8(ascii: "{") else { return ["(not an object)"] }
            var names: [String] = []
            var object = try cursor.beginObject()
            while let key = try cursor.nextKey(in: &object) {
                names.append(key.text)
                try cursor.skipValue()
            }
            return names
        }
        guard let keys else { return nil }
        let kind: ItemKind
        let has = { (name: String) in keys.contains(name) }
        if has("latitudeE7") || has("longitudeE7") || has("timestampMs") {
            kind = .records
            shape = .googleRecords
        } else if has("geometry") || has("properties") {
            kind = .feature
            shape = locations ? .overland : .geoJSON
        } else if !locations && (has("startTime") || has("endTime")) {
            kind = .segment
            shape = .iosTimeline
        } else if locations && has("timestamp") {
            kind = .records
            shape = .googleRecords
        } else if keys == ["(not an object)"] {
            throw unknown(locations ? "its locations array holds values that are not objects" : "it is an array of values that are not objects")
        } else {
            let what = locations ? "its locations array holds" : "it is an array of"
            throw unknown("\(what) objects with keys \(keys.prefix(12).joined(separator: ", ")), not Google's locations, segments or GeoJSON features")
        }
        // Consumed nothing: the first item is read again by its decoder.
        return kind
    }

    private mutating func finish() throws(ImportError) {
        state = .done
        let sink = self.sink
        let feature = self.feature
        let name = scanner.input.name
        try scanner.attempt(tooLong: { Self.unknown("trailing whitespace beyond 64 MiB", file: name) }) { (cursor: inout JSONCursor) throws(JSONStop) in
            cursor.skipWhitespace()
            if cursor.i < cursor.bytes.count {
                throw cursor.syntax("unexpected \(cursor.describe(cursor.bytes[cursor.i])) after the JSON document")
            }
            if !cursor.complete { throw JSONStop.needMore }
            if let feature, feature.type != nil {
                sink.restore(sink.snapshot)
                try GeoJSONFeatureDecoder.emit(feature, cursor: cursor, into: sink)
            }
        }
        guard recognised else { throw noKnownKey() }
        if shape == .geoJSON || shape == .overland, sink.fixes == 0, sink.skipped > 0 {
            let message =
                sink.untimedLines > 0
                ? "the GeoJSON has \(sink.untimedLines) line(s) without times and no timed position: Waymark imports where the device was "
                    + "and when; export the track with a time per point (togeojson's coordTimes, or the GPX itself)"
                : "no GeoJSON feature has a time (a time, timestamp, datetime or date property, or coordTimes)"
            throw ImportError(.unsupported, message, file: scanner.input.name)
        }
    }
}
