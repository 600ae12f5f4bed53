import WaymarkCore

/// One segment of Google Maps' on-device Timeline export: Android's `Timeline.json`
/// (`semanticSegments`) and iOS's `location-history.json` (a bare array). Both give `startTime`
/// and `endTime` (RFC 3339 with the local offset) and one of:
/// - `visit.topCandidate` (`placeId`/`placeID`, `semanticType`, `probability`, `placeLocation`)
///   → a reported visit over the segment;
/// - `activity` (`start`, `end`, `distanceMeters`, `topCandidate.type`/`probability`) → a
///   reported activity;
/// - `timelinePath` points → fixes: Android's carry a `time`, iOS's a
///   `durationMinutesOffsetFromStartTime` added to the segment's start.
///
/// Positions are Android's `"47.1°, 8.1°"` (in `latLng` objects) or iOS's `"geo:47.1,8.1"`
/// strings; iOS writes numbers as strings. `timelineMemory` segments are skipped.
enum TimelineSegmentDecoder {
    static func decode(_ cursor: inout JSONCursor, into sink: JSONItemSink) throws(JSONStop) {
        let at = cursor.mark()
        var object = try cursor.beginObject()
        var start: Timestamp?
        var end: Timestamp?
        var visit: ReportedVisit?
        var activity: ReportedActivity?
        var path: [PathPoint] = []
        while let key = try cursor.nextKey(in: &object) {
            switch key {
            case "startTime": start = try cursor.time("startTime")
            case "endTime": end = try cursor.time("endTime")
            case "visit": visit = try self.visit(&cursor)
            case "activity": activity = try self.activity(&cursor)
            case "timelinePath": path = try timelinePath(&cursor)
            default: try cursor.skipValue()
            }
        }
        let needsStart = visit != nil || activity != nil || path.contains { $0.time == nil }
        guard let start else {
            if needsStart { throw cursor.invalid("startTime", "a segment without a start time", at: at) }
            for point in path { append(point, time: point.time, into: sink) }
            return
        }
        if var visit {
            visit.start = start
            visit.end = end
            sink.append(visit)
        }
        if var activity {
            activity.start = start
            activity.end = end
            sink.append(activity)
        }
        for point in path {
            append(point, time: point.time ?? point.offsetMinutes.map { start.adding(seconds: $0 * 60) }, into: sink)
        }
    }

    private static func append(_ point: PathPoint, time: Timestamp?, into sink: JSONItemSink) {
        guard let time else {
            sink.skipped += 1
            return
        }
        sink.append(Fix(time: time, coordinate: point.coordinate))
    }

    private static let placeholder = Timestamp(nanosecondsSince1970: 0)

    private static func visit(_ cursor: inout JSONCursor) throws(JSONStop) -> ReportedVisit? {
        if try cursor.skipNull() { return nil }
        var visit = ReportedVisit(start: placeholder)
        var object = try cursor.beginObject()
        while let key = try cursor.nextKey(in: &object) {
            guard case "topCandidate" = key, try !cursor.skipNull() else {
                try cursor.skipValue()
                continue
            }
            var candidate = try cursor.beginObject()
            while let key = try cursor.nextKey(in: &candidate) {
                switch key {
                case "placeId", "placeID": visit.placeID = try cursor.optionalString("placeId")
                case "semanticType": visit.semanticType = try cursor.optionalString("semanticType")
                case "probability": visit.probability = try cursor.numeric("probability")
                case "placeLocation": visit.coordinate = try position(&cursor, "placeLocation")
                default: try cursor.skipValue()
                }
            }
        }
        return visit
    }

    private static func activity(_ cursor: inout JSONCursor) throws(JSONStop) -> ReportedActivity? {
        if try cursor.skipNull() { return nil }
        var activity = ReportedActivity(start: placeholder)
        var object = try cursor.beginObject()
        while let key = try cursor.nextKey(in: &object) {
            switch key {
            case "start": activity.from = try position(&cursor, "activity.start")
            case "end": activity.to = try position(&cursor, "activity.end")
            case "distanceMeters": activity.distance = try cursor.numeric("distanceMeters")
            case "topCandidate":
                if try cursor.skipNull() { continue }
                var candidate = try cursor.beginObject()
                while let key = try cursor.nextKey(in: &candidate) {
                    switch key {
                    case "type": activity.mode = try cursor.optionalString("type")
                    case "probability": activity.probability = try cursor.numeric("probability")
                    default: try cursor.skipValue()
                    }
                }
            default: try cursor.skipValue()
            }
        }
        return activity
    }

    /// A position as a `"…°, …°"` or `"geo:…"` string, or an object holding one as `latLng`.
    static func position(_ cursor: inout JSONCursor, _ field: StaticString) throws(JSONStop) -> Coordinate? {
        guard try cursor.peek() == UInt8(ascii: "{") else { return try cursor.textCoordinate(field) }
        var coordinate: Coordinate?
        var object = try cursor.beginObject()
        while let key = try cursor.nextKey(in: &object) {
            switch key {
            case "latLng", "LatLng": coordinate = try cursor.textCoordinate(field)
            default: try cursor.skipValue()
            }
        }
        return coordinate
    }

    struct PathPoint {
        var coordinate: Coordinate
        var time: Timestamp?
        var offsetMinutes: Double?
    }

    private static func timelinePath(_ cursor: inout JSONCursor) throws(JSONStop) -> [PathPoint] {
        var points: [PathPoint] = []
        if try cursor.skipNull() { return points }
        var array = try cursor.beginArray()
        while try cursor.nextElement(in: &array) {
            let at = cursor.mark()
            var object = try cursor.beginObject()
            var coordinate: Coordinate?
            var time: Timestamp?
            var offset: Double?
            while let key = try cursor.nextKey(in: &object) {
                switch key {
                case "point": coordinate = try cursor.textCoordinate("timelinePath.point")
                case "time": time = try cursor.time("timelinePath.time")
                case "durationMinutesOffsetFromStartTime": offset = try cursor.numeric("durationMinutesOffsetFromStartTime")
                default: try cursor.skipValue()
                }
            }
            guard let coordinate else { throw cursor.invalid("timelinePath", "a path point without a point", at: at) }
            points.append(PathPoint(coordinate: coordinate, time: time, offsetMinutes: offset))
        }
        return points
    }
}
