import WaymarkCore

/// One entry of Google Takeout's `Records.json` (`{"locations": [...]}`): a fix from
/// `latitudeE7`/`longitudeE7` (degrees × 10⁷), `timestamp` (RFC 3339) or `timestampMs`
/// (milliseconds), `accuracy` and `verticalAccuracy` (metres), `altitude` (metres), `velocity`
/// (m/s) and `heading` (degrees). Activity guesses, `source`, `deviceTag` and the rest are skipped.
///
/// Real exports hold entries with no position (an activity or Wi-Fi scan alone): those are
/// skipped and counted. A position without a time, or off the Earth, is `invalidValue`.
enum GoogleRecordsDecoder {
    static func decode(_ cursor: inout JSONCursor, into sink: JSONItemSink) throws(JSONStop) {
        let start = cursor.mark()
        var object = try cursor.beginObject()
        var latitude: Double?
        var longitude: Double?
        var coordinateAt = start
        var time: Timestamp?
        var fix = Fix(time: nil, coordinate: Coordinate(latitude: 0, longitude: 0))
        while let key = try cursor.nextKey(in: &object) {
            switch key {
            case "latitudeE7":
                coordinateAt = cursor.mark()
                latitude = try cursor.e7("latitudeE7")
            case "longitudeE7": longitude = try cursor.e7("longitudeE7")
            case "timestamp": time = try cursor.time("timestamp")
            case "timestampMs": time = try cursor.time("timestampMs")
            case "accuracy": fix.horizontalAccuracy = try cursor.double("accuracy")
            case "altitude": fix.altitude = try cursor.double("altitude")
            case "verticalAccuracy": fix.verticalAccuracy = try cursor.double("verticalAccuracy")
            case "velocity": fix.speed = try cursor.double("velocity")
            case "heading": fix.course = try cursor.double("heading")
            default: try cursor.skipValue()
            }
        }
        guard let latitude, let longitude else {
            sink.skipped += 1
            return
        }
        guard let time else {
            throw cursor.invalid("timestamp", "a location without a time (neither timestamp nor timestampMs)", at: start)
        }
        fix.time = time
        fix.coordinate = try cursor.checked(latitude: latitude, longitude: longitude, "latitudeE7", at: coordinateAt)
        sink.append(fix)
    }
}
