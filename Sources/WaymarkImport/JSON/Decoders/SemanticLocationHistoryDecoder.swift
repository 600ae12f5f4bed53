import WaymarkCore

/// One `timelineObjects` entry of Google Takeout's Semantic Location History (one file a
/// month): a `placeVisit` becomes a reported visit, an `activitySegment` a reported activity,
/// and the timed points of either's `simplifiedRawPath` become fixes after it. `waypointPath`
/// points have no times and are not fixes; `childVisits` and candidate places are skipped.
enum SemanticLocationHistoryDecoder {
    static func decode(_ cursor: inout JSONCursor, into sink: JSONItemSink) throws(JSONStop) {
        var object = try cursor.beginObject()
        while let key = try cursor.nextKey(in: &object) {
            switch key {
            case "placeVisit": try placeVisit(&cursor, into: sink)
            case "activitySegment": try activitySegment(&cursor, into: sink)
            default: try cursor.skipValue()
            }
        }
    }

    /// `location` (`latitudeE7`/`longitudeE7`, `placeId`, `name`, `address`, `semanticType`),
    /// else `centerLatE7`/`centerLngE7`; `duration`; `visitConfidence` (0–100) as the probability.
    private static func placeVisit(_ cursor: inout JSONCursor, into sink: JSONItemSink) throws(JSONStop) {
        let start = cursor.mark()
        var object = try cursor.beginObject()
        var place = Place()
        var center = Place()
        var times = Span()
        var confidence: Double?
        var path: [Fix] = []
        while let key = try cursor.nextKey(in: &object) {
            switch key {
            case "location": place = try self.place(&cursor)
            case "centerLatE7":
                center.at = cursor.mark()
                center.latitude = try cursor.e7("centerLatE7")
            case "centerLngE7": center.longitude = try cursor.e7("centerLngE7")
            case "duration": times = try span(&cursor)
            case "visitConfidence": confidence = try cursor.double("visitConfidence")
            case "simplifiedRawPath": path = try rawPath(&cursor, into: sink)
            default: try cursor.skipValue()
            }
        }
        guard let begin = times.start else {
            throw cursor.invalid("placeVisit.duration", "a visit without a start (startTimestamp)", at: start)
        }
        var coordinate = try place.coordinate(&cursor, "location.latitudeE7")
        if coordinate == nil { coordinate = try center.coordinate(&cursor, "centerLatE7") }
        sink.append(
            ReportedVisit(
                start: begin, end: times.end, coordinate: coordinate, name: place.name, address: place.address,
                placeID: place.placeID, semanticType: place.semanticType, probability: confidence.map { $0 / 100 }))
        for fix in path { sink.append(fix) }
    }

    /// `startLocation`, `endLocation`, `duration`, `distance` (metres), `activityType`, and the
    /// probability (0–100) the `activities` list gives that type.
    private static func activitySegment(_ cursor: inout JSONCursor, into sink: JSONItemSink) throws(JSONStop) {
        let start = cursor.mark()
        var object = try cursor.beginObject()
        var from = Place()
        var to = Place()
        var times = Span()
        var distance: Double?
        var mode: String?
        var candidates: [(String, Double)] = []
        var path: [Fix] = []
        while let key = try cursor.nextKey(in: &object) {
            switch key {
            case "startLocation": from = try place(&cursor)
            case "endLocation": to = try place(&cursor)
            case "duration": times = try span(&cursor)
            case "distance": distance = try cursor.double("distance")
            case "activityType": mode = try cursor.optionalString("activityType")
            case "activities": candidates = try activities(&cursor)
            case "simplifiedRawPath": path = try rawPath(&cursor, into: sink)
            default: try cursor.skipValue()
            }
        }
        guard let begin = times.start else {
            throw cursor.invalid("activitySegment.duration", "an activity without a start (startTimestamp)", at: start)
        }
        let probability = candidates.first { $0.0 == mode }.map { $0.1 / 100 }
        sink.append(
            ReportedActivity(
                start: begin, end: times.end, from: try from.coordinate(&cursor, "startLocation.latitudeE7"),
                to: try to.coordinate(&cursor, "endLocation.latitudeE7"), mode: mode, distance: distance, probability: probability))
        for fix in path { sink.append(fix) }
    }

    struct Place {
        var latitude: Double?
        var longitude: Double?
        var at = ImportError.Position.none
        var name: String?
        var address: String?
        var placeID: String?
        var semanticType: String?

        func coordinate(_ cursor: inout JSONCursor, _ field: StaticString) throws(JSONStop) -> Coordinate? {
            guard let latitude, let longitude else { return nil }
            return try cursor.checked(latitude: latitude, longitude: longitude, field, at: at)
        }
    }

    private static func place(_ cursor: inout JSONCursor) throws(JSONStop) -> Place {
        var place = Place()
        if try cursor.skipNull() { return place }
        var object = try cursor.beginObject()
        while let key = try cursor.nextKey(in: &object) {
            switch key {
            case "latitudeE7":
                place.at = cursor.mark()
                place.latitude = try cursor.e7("latitudeE7")
            case "longitudeE7": place.longitude = try cursor.e7("longitudeE7")
            case "name": place.name = try cursor.optionalString("name")
            case "address": place.address = try cursor.optionalString("address")
            case "placeId": place.placeID = try cursor.optionalString("placeId")
            case "semanticType": place.semanticType = try cursor.optionalString("semanticType")
            default: try cursor.skipValue()
            }
        }
        return place
    }

    struct Span {
        var start: Timestamp?
        var end: Timestamp?
    }

    private static func span(_ cursor: inout JSONCursor) throws(JSONStop) -> Span {
        var span = Span()
        if try cursor.skipNull() { return span }
        var object = try cursor.beginObject()
        while let key = try cursor.nextKey(in: &object) {
            switch key {
            case "startTimestamp": span.start = try cursor.time("startTimestamp")
            case "startTimestampMs": span.start = try cursor.time("startTimestampMs")
            case "endTimestamp": span.end = try cursor.time("endTimestamp")
            case "endTimestampMs": span.end = try cursor.time("endTimestampMs")
            default: try cursor.skipValue()
            }
        }
        return span
    }

    private static func activities(_ cursor: inout JSONCursor) throws(JSONStop) -> [(String, Double)] {
        var found: [(String, Double)] = []
        if try cursor.skipNull() { return found }
        var array = try cursor.beginArray()
        while try cursor.nextElement(in: &array) {
            var object = try cursor.beginObject()
            var type: String?
            var probability: Double?
            while let key = try cursor.nextKey(in: &object) {
                switch key {
                case "activityType": type = try cursor.optionalString("activityType")
                case "probability": probability = try cursor.double("probability")
                default: try cursor.skipValue()
                }
            }
            if let type, let probability { found.append((type, probability)) }
        }
        return found
    }

    /// `{"points": [{latE7, lngE7, accuracyMeters, timestamp | timestampMs}]}`: the timed points
    /// as fixes; a point without a time is skipped and counted.
    private static func rawPath(_ cursor: inout JSONCursor, into sink: JSONItemSink) throws(JSONStop) -> [Fix] {
        var fixes: [Fix] = []
        if try cursor.skipNull() { return fixes }
        var object = try cursor.beginObject()
        while let key = try cursor.nextKey(in: &object) {
            guard case "points" = key, try !cursor.skipNull() else {
                try cursor.skipValue()
                continue
            }
            var array = try cursor.beginArray()
            while try cursor.nextElement(in: &array) {
                var point = try cursor.beginObject()
                var place = Place()
                var fix = Fix(time: nil, coordinate: Coordinate(latitude: 0, longitude: 0))
                while let key = try cursor.nextKey(in: &point) {
                    switch key {
                    case "latE7":
                        place.at = cursor.mark()
                        place.latitude = try cursor.e7("latE7")
                    case "lngE7": place.longitude = try cursor.e7("lngE7")
                    case "accuracyMeters": fix.horizontalAccuracy = try cursor.double("accuracyMeters")
                    case "timestamp": fix.time = try cursor.time("timestamp")
                    case "timestampMs": fix.time = try cursor.time("timestampMs")
                    default: try cursor.skipValue()
                    }
                }
                guard fix.time != nil, let coordinate = try place.coordinate(&cursor, "simplifiedRawPath.points.latE7") else {
                    sink.skipped += 1
                    continue
                }
                fix.coordinate = coordinate
                fixes.append(fix)
            }
        }
        return fixes
    }
}
