import WaymarkCore

/// The raw positions of Google's on-device exports: an entry of Android `Timeline.json`'s
/// `rawSignals` (`{"position": {...}}`) and of `Timeline Edits.json`'s `timelineEdits`
/// (`{"rawSignal": {"signal": {"position": {...}}}}`). A position gives `LatLng`
/// (`"47.1°, 8.1°"`) or `point` (`latE7`/`lngE7`), `accuracyMeters` or `accuracyMm`,
/// `altitudeMeters`, `speedMetersPerSecond` and `timestamp` → a fix. Other signals (`wifiScan`,
/// `activityRecord`) and entries (`placeAggregates`) are skipped; a position without a time is
/// skipped and counted.
enum PositionSignalDecoder {
    /// A `rawSignals` entry.
    static func decodeSignal(_ cursor: inout JSONCursor, into sink: JSONItemSink) throws(JSONStop) {
        try member("position", of: &cursor) { (cursor: inout JSONCursor) throws(JSONStop) in try position(&cursor, into: sink) }
    }

    /// A `timelineEdits` entry.
    static func decodeEdit(_ cursor: inout JSONCursor, into sink: JSONItemSink) throws(JSONStop) {
        try member("rawSignal", of: &cursor) { (cursor: inout JSONCursor) throws(JSONStop) in
            try member("signal", of: &cursor) { (cursor: inout JSONCursor) throws(JSONStop) in
                try member("position", of: &cursor) { (cursor: inout JSONCursor) throws(JSONStop) in try position(&cursor, into: sink) }
            }
        }
    }

    /// Reads an object, handing the value of `name` to `read` and skipping the rest.
    private static func member(
        _ name: StaticString, of cursor: inout JSONCursor, _ read: (inout JSONCursor) throws(JSONStop) -> Void
    ) throws(JSONStop) {
        if try cursor.skipNull() { return }
        var object = try cursor.beginObject()
        while let key = try cursor.nextKey(in: &object) {
            if key.string.equals(name), try !cursor.skipNull() {
                try read(&cursor)
            } else {
                try cursor.skipValue()
            }
        }
    }

    private static func position(_ cursor: inout JSONCursor, into sink: JSONItemSink) throws(JSONStop) {
        let at = cursor.mark()
        var object = try cursor.beginObject()
        var coordinate: Coordinate?
        var fix = Fix(time: nil, coordinate: Coordinate(latitude: 0, longitude: 0))
        while let key = try cursor.nextKey(in: &object) {
            switch key {
            case "LatLng", "latLng": coordinate = try cursor.textCoordinate("position.LatLng")
            case "point": coordinate = try point(&cursor)
            case "accuracyMeters": fix.horizontalAccuracy = try cursor.double("accuracyMeters")
            case "accuracyMm": fix.horizontalAccuracy = try cursor.double("accuracyMm").map { $0 / 1000 }
            case "altitudeMeters": fix.altitude = try cursor.double("altitudeMeters")
            case "speedMetersPerSecond": fix.speed = try cursor.double("speedMetersPerSecond")
            case "timestamp": fix.time = try cursor.time("timestamp")
            default: try cursor.skipValue()
            }
        }
        guard let coordinate else { throw cursor.invalid("position", "a position without coordinates", at: at) }
        guard fix.time != nil else {
            sink.skipped += 1
            return
        }
        fix.coordinate = coordinate
        sink.append(fix)
    }

    private static func point(_ cursor: inout JSONCursor) throws(JSONStop) -> Coordinate? {
        if try cursor.skipNull() { return nil }
        let at = cursor.mark()
        var latitude: Double?
        var longitude: Double?
        var object = try cursor.beginObject()
        while let key = try cursor.nextKey(in: &object) {
            switch key {
            case "latE7": latitude = try cursor.e7("latE7")
            case "lngE7": longitude = try cursor.e7("lngE7")
            default: try cursor.skipValue()
            }
        }
        guard let latitude, let longitude else { throw cursor.invalid("position.point", "needs latE7 and lngE7", at: at) }
        return try cursor.checked(latitude: latitude, longitude: longitude, "position.point", at: at)
    }
}
