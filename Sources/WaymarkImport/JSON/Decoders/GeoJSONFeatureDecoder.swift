import WaymarkCore

/// A GeoJSON Feature (RFC 7946) read as history, which is also the shape of an Overland batch's
/// `locations`:
/// - a `Point` (or `MultiPoint`) with a time property (`time`, `timestamp`, `datetime` or `date`:
///   RFC 3339, or seconds since 1970 as a number, milliseconds when it is 10¹¹ or more) → a fix
///   per position;
/// - a `LineString` or `MultiLineString` (or `MultiPoint`) with one time per position in
///   `coordTimes` or `times` (as togeojson writes them; nested per line for a MultiLineString)
///   → a fix per position.
/// The optional properties `accuracy`/`horizontal_accuracy`, `vertical_accuracy`, `altitude`
/// (else the third coordinate), `speed` (m/s) and `course`/`heading` (degrees) fill the fix; a
/// negative speed or course (Core Location's "unknown", which Overland passes on) is left out.
/// A feature that gives no timed position (a line without times, a polygon) is skipped and counted.
enum GeoJSONFeatureDecoder {
    struct Feature {
        var at = ImportError.Position.none
        var type: String?
        var positions: [[Double]] = []
        var geometryAt = ImportError.Position.none
        var time: Timestamp?
        var times: [Timestamp] = []
        var timesAt: ImportError.Position?
        var template = Fix(time: nil, coordinate: Coordinate(latitude: 0, longitude: 0))
    }

    static func decode(_ cursor: inout JSONCursor, into sink: JSONItemSink) throws(JSONStop) {
        var feature = Feature()
        feature.at = cursor.mark()
        var object = try cursor.beginObject()
        while let key = try cursor.nextKey(in: &object) {
            switch key {
            case "geometry": try geometry(&cursor, into: &feature)
            case "properties": try properties(&cursor, into: &feature)
            default: try cursor.skipValue()
            }
        }
        try emit(feature, cursor: cursor, into: sink)
    }

    static func geometry(_ cursor: inout JSONCursor, into feature: inout Feature) throws(JSONStop) {
        if try cursor.skipNull() { return }
        feature.geometryAt = cursor.mark()
        var object = try cursor.beginObject()
        while let key = try cursor.nextKey(in: &object) {
            switch key {
            case "type": feature.type = try cursor.optionalString("geometry.type")
            case "coordinates": try positions(&cursor, into: &feature.positions)
            default: try cursor.skipValue()
            }
        }
    }

    /// Every position (an array of numbers) inside nested arrays, in order.
    private static func positions(_ cursor: inout JSONCursor, into positions: inout [[Double]]) throws(JSONStop) {
        let at = cursor.mark()
        var array = try cursor.beginArray()
        var numbers: [Double] = []
        while try cursor.nextElement(in: &array) {
            if try cursor.peek() == UInt8(ascii: "[") {
                try self.positions(&cursor, into: &positions)
            } else if let number = try cursor.double("coordinates") {
                numbers.append(number)
            }
        }
        if !numbers.isEmpty {
            guard numbers.count >= 2 else { throw cursor.invalid("coordinates", "a position needs a longitude and a latitude", at: at) }
            positions.append(numbers)
        }
    }

    static func properties(_ cursor: inout JSONCursor, into feature: inout Feature) throws(JSONStop) {
        if try cursor.skipNull() { return }
        var object = try cursor.beginObject()
        while let key = try cursor.nextKey(in: &object) {
            switch key {
            case "time", "timestamp", "datetime", "date": feature.time = try time(&cursor, key)
            case "coordTimes", "times":
                feature.timesAt = cursor.mark()
                try times(&cursor, key, into: &feature.times)
            case "accuracy", "horizontal_accuracy": feature.template.horizontalAccuracy = try cursor.double("accuracy")
            case "vertical_accuracy": feature.template.verticalAccuracy = try cursor.double("vertical_accuracy")
            case "altitude": feature.template.altitude = try cursor.double("altitude")
            case "speed": feature.template.speed = try cursor.double("speed").flatMap { $0 < 0 ? nil : $0 }
            case "course", "heading": feature.template.course = try cursor.double("course").flatMap { $0 < 0 ? nil : $0 }
            default: try cursor.skipValue()
            }
        }
    }

    /// A time property: RFC 3339, or seconds since 1970 (milliseconds from 10¹¹ on).
    private static func time(_ cursor: inout JSONCursor, _ key: JSONKey) throws(JSONStop) -> Timestamp? {
        if try cursor.skipNull() { return nil }
        let at = cursor.mark()
        if try cursor.peek() == UInt8(ascii: "\"") {
            let text = try cursor.rawString()
            guard let time = text.rfc3339 else {
                throw cursor.invalid(key.text, "\"\(text.decoded)\" is not an RFC 3339 time", at: at)
            }
            return time
        }
        guard let value = try cursor.double("time"), let time = JSONCursor.time(milliseconds: abs(value) >= 1e11 ? value : value * 1000) else {
            throw cursor.invalid(key.text, "the time is out of range", at: at)
        }
        return time
    }

    private static func times(_ cursor: inout JSONCursor, _ key: JSONKey, into times: inout [Timestamp]) throws(JSONStop) {
        if try cursor.skipNull() { return }
        var array = try cursor.beginArray()
        while try cursor.nextElement(in: &array) {
            if try cursor.peek() == UInt8(ascii: "[") {
                try self.times(&cursor, key, into: &times)
            } else {
                let at = cursor.mark()
                guard let time = try time(&cursor, key) else { throw cursor.invalid(key.text, "a null among the times", at: at) }
                times.append(time)
            }
        }
    }

    /// The feature's fixes, or the count of a feature that has none.
    static func emit(_ feature: Feature, cursor: JSONCursor, into sink: JSONItemSink) throws(JSONStop) {
        let isLine = feature.type == "LineString" || feature.type == "MultiLineString"
        let isPoint = feature.type == "Point" || feature.type == "MultiPoint"
        guard isLine || isPoint, !feature.positions.isEmpty else {
            sink.skipped += 1
            return
        }
        var times: [Timestamp]
        if !feature.times.isEmpty {
            times = feature.times
            guard times.count == feature.positions.count else {
                throw cursor.invalid(
                    "coordTimes", "\(times.count) times for \(feature.positions.count) positions",
                    at: feature.timesAt ?? feature.at)
            }
        } else if isPoint, let time = feature.time {
            times = Array(repeating: time, count: feature.positions.count)
        } else {
            if isLine { sink.untimedLines += 1 }
            sink.skipped += 1
            return
        }
        for (position, time) in zip(feature.positions, times) {
            var fix = feature.template
            fix.time = time
            fix.coordinate = try cursor.checked(latitude: position[1], longitude: position[0], "coordinates", at: feature.geometryAt)
            if fix.altitude == nil, position.count > 2 { fix.altitude = position[2] }
            sink.append(fix)
        }
    }
}
