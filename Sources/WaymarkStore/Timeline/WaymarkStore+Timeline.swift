import GRDB
import WaymarkCore
import WaymarkServices

/// Where a fix lies in a device's time-ordered history: its time, then its row id among fixes
/// of the same time (the order `waymark timeline` reads them in).
public struct FixPosition: Sendable, Hashable {
    public var time: Timestamp
    public var id: Int64

    public init(time: Timestamp, id: Int64) {
        self.time = time
        self.id = id
    }
}

/// A completed stay, with the position of its last fix: the timeline is recomputed from there.
public struct StoredTimelineStay: Sendable, Equatable {
    public var stay: TimelineStay
    public var lastFix: FixPosition

    public init(stay: TimelineStay, lastFix: FixPosition) {
        self.stay = stay
        self.lastFix = lastFix
    }
}

/// How far a device's stored timeline goes (`timeline_progress`, the last stored stay).
public struct TimelineProgress: Sendable, Equatable {
    /// The last stored stay; reading resumes after its last fix. Nil: from the first fix.
    public var lastStay: StoredTimelineStay?
    /// The last stored stay's last fix, as recorded (where a segmenter resumes); nil when there
    /// is no stored stay or retention has removed the fix.
    public var lastStayFix: Fix?
    /// The highest fix row id whose effect on the stored segments is accounted for.
    public var seenFixID: Int64
}

extension WaymarkStore {
    /// Device `device`'s timeline progress: the last stored stay and the fixes accounted for.
    public func timelineProgress(device: String) throws -> TimelineProgress {
        try read(doing: "reading device \(device)'s timeline progress") { db in
            try Self.timelineProgress(device: device, db)
        }
    }

    /// The earliest time among `device`'s fixes with a row id above `fixID` (recorded or imported
    /// since), and the highest such id; nil when there are none.
    public func fixesAdded(device: String, after fixID: Int64) throws -> (earliest: Timestamp, highestID: Int64)? {
        try read(doing: "reading device \(device)'s new fixes") { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT min(time_ns), max(id) FROM fixes WHERE id > ? AND device = ?", arguments: [fixID, device])
            guard let row, let earliest = row[0] as Int64?, let highest = row[1] as Int64? else { return nil }
            return (Timestamp(nanosecondsSince1970: earliest), highest)
        }
    }

    /// Up to `limit` of `device`'s fixes after `position` (all when nil) and before `end` (no
    /// bound when nil), in time order (then row id): the timeline's next page. One range scan of
    /// the fixes' time index with the device as a filter; columns are read by index.
    public func timelineFixes(
        device: String, after position: FixPosition?, before end: Timestamp? = nil, limit: Int
    ) throws -> [(id: Int64, fix: Fix)] {
        try read(doing: "reading device \(device)'s fixes") { db in
            let after = position ?? FixPosition(time: Timestamp(nanosecondsSince1970: .min), id: 0)
            let statement = try db.cachedStatement(
                sql: """
                    SELECT \(Self.directFixColumns) FROM fixes
                    WHERE device = ?3 AND time_ns >= ?1 AND (time_ns > ?1 OR id > ?2) AND time_ns < ?5
                    ORDER BY time_ns, id LIMIT ?4
                    """)
            let arguments: StatementArguments = [
                after.time.nanosecondsSince1970, after.id, device, limit, end?.nanosecondsSince1970 ?? .max,
            ]
            return try Self.fixPage(statement, arguments, limit: limit)
        }
    }

    /// Appends completed segments after the device's last stored stay, in one transaction, when
    /// that stay is still `expected` (by its last fix; nil: none stored): another refresh that got
    /// there first has stored the same segments, and nothing is written (returns false). Each
    /// stay in `segments` comes with its last fix (`stays`, in order).
    @discardableResult
    public func appendTimelineSegments(
        _ segments: [TimelineSegment], stays: [FixPosition], device: String, expected: FixPosition?
    ) throws -> Bool {
        guard !segments.isEmpty else { return true }
        return try writeTimeline(doing: "storing \(segments.count) timeline segments") { db in
            guard try Self.timelineProgress(device: device, db).lastStay?.lastFix == expected else { return false }
            var lastFixes = stays.makeIterator()
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO timeline_segments (device, kind, start_ns, end_ns, latitude, longitude, fixes, uncertainty, last_fix_id,
                        to_latitude, to_longitude, distance, moving_time, max_speed, average_speed, elevation_gain, mode)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for segment in segments {
                switch segment {
                case .stay(let stay):
                    guard let last = lastFixes.next() else { preconditionFailure("a stored stay needs its last fix") }
                    try insert.execute(arguments: [
                        device, "stay", stay.arrival.nanosecondsSince1970, stay.departure.nanosecondsSince1970, stay.centre.latitude,
                        stay.centre.longitude, stay.fixCount, stay.uncertainty, last.id, nil, nil, nil, nil, nil, nil, nil, nil,
                    ])
                case .trip(let trip):
                    try insert.execute(arguments: [
                        device, "trip", trip.start.nanosecondsSince1970, trip.end.nanosecondsSince1970, trip.from.latitude,
                        trip.from.longitude, trip.fixCount, nil, nil, trip.to.latitude, trip.to.longitude, trip.distance,
                        trip.movingTime, trip.maxSpeed, trip.averageSpeed, trip.elevationGain, trip.mode.rawValue,
                    ])
                }
            }
            return true
        }
    }

    /// Records that `device`'s fixes up to row id `fixID` are accounted for.
    public func markTimelineSeen(device: String, fixID: Int64) throws {
        try writeTimeline(doing: "advancing device \(device)'s timeline") { db in
            try db.execute(
                sql: """
                    INSERT INTO timeline_progress (device, seen_fix_id) VALUES (?, ?)
                    ON CONFLICT (device) DO UPDATE SET seen_fix_id = max(seen_fix_id, excluded.seen_fix_id)
                    """,
                arguments: [device, fixID])
        }
    }

    /// Drops `device`'s stored segments that a fix at `time` may change, in one transaction:
    /// every segment ending at or after `time`, and the last stay before it with the trip to it
    /// (a fix just after a stay's last one may extend it). What remains ends with a stay whose
    /// leaving fix came before `time`, so reading again after it gives what a reading from the
    /// first fix would.
    public func rewindTimeline(device: String, before time: Timestamp) throws {
        try writeTimeline(doing: "dropping device \(device)'s timeline from \(time.rfc3339)") { db in
            let stays = try Int64.fetchAll(
                db,
                sql: "SELECT id FROM timeline_segments WHERE device = ? AND kind = 'stay' AND end_ns < ? ORDER BY id DESC LIMIT 2",
                arguments: [device, time.nanosecondsSince1970])
            let keepThrough = stays.count == 2 ? stays[1] : 0
            try db.execute(sql: "DELETE FROM timeline_segments WHERE device = ? AND id > ?", arguments: [device, keepThrough])
        }
    }

    /// `device`'s stored segments overlapping [`from`, `to`) (ending after `from`, starting before
    /// `to`), in time order.
    public func timelineSegments(device: String, from: Timestamp, to: Timestamp) throws -> [TimelineSegment] {
        try read(doing: "reading device \(device)'s timeline") { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.segmentColumns) FROM timeline_segments
                    WHERE device = ? AND end_ns > ? AND start_ns < ? ORDER BY id
                    """,
                arguments: [device, from.nanosecondsSince1970, to.nanosecondsSince1970]
            ).map(Self.timelineSegment)
        }
    }

    /// `device`'s latest fix at or before `time`, or else its first after; nil when it has none.
    public func fixNearest(device: String, atOrBefore time: Timestamp) throws -> Fix? {
        try read(doing: "reading device \(device)'s position at \(time.rfc3339)") { db in
            let before = try Row.fetchOne(
                db,
                sql: "SELECT latitude, longitude, time_ns FROM fixes WHERE device = ? AND time_ns <= ? ORDER BY time_ns DESC, id DESC LIMIT 1",
                arguments: [device, time.nanosecondsSince1970])
            let row = try before
                ?? Row.fetchOne(
                    db, sql: "SELECT latitude, longitude, time_ns FROM fixes WHERE device = ? ORDER BY time_ns, id LIMIT 1",
                    arguments: [device])
            return row.map { Fix(time: Timestamp(nanosecondsSince1970: $0[2]), coordinate: Coordinate(latitude: $0[0], longitude: $0[1])) }
        }
    }

    // MARK: - Rows

    static let segmentColumns = """
        id, kind, start_ns, end_ns, latitude, longitude, fixes, uncertainty, last_fix_id, to_latitude, to_longitude, distance, \
        moving_time, max_speed, average_speed, elevation_gain, mode
        """

    static func timelineProgress(device: String, _ db: Database) throws -> TimelineProgress {
        let seen = try Int64.fetchOne(db, sql: "SELECT seen_fix_id FROM timeline_progress WHERE device = ?", arguments: [device]) ?? 0
        let row = try Row.fetchOne(
            db,
            sql: "SELECT \(segmentColumns) FROM timeline_segments WHERE device = ? AND kind = 'stay' ORDER BY id DESC LIMIT 1",
            arguments: [device])
        guard let row, case .stay(let stay) = try timelineSegment(row) else {
            return TimelineProgress(lastStay: nil, lastStayFix: nil, seenFixID: seen)
        }
        let lastFixID: Int64 = row["last_fix_id"]
        let last = StoredTimelineStay(stay: stay, lastFix: FixPosition(time: stay.departure, id: lastFixID))
        let statement = try db.cachedStatement(sql: "SELECT \(directFixColumns) FROM fixes WHERE id = ?")
        let fix = try fixPage(statement, [lastFixID], limit: 1).first?.fix
        return TimelineProgress(lastStay: last, lastStayFix: fix, seenFixID: seen)
    }

    static func timelineSegment(_ row: Row) throws -> TimelineSegment {
        let start = Timestamp(nanosecondsSince1970: row["start_ns"])
        let end = Timestamp(nanosecondsSince1970: row["end_ns"])
        let origin = Coordinate(latitude: row["latitude"], longitude: row["longitude"])
        if (row["kind"] as String) == "stay" {
            return .stay(TimelineStay(arrival: start, departure: end, centre: origin, uncertainty: row["uncertainty"], fixCount: row["fixes"]))
        }
        let modeText: String = row["mode"]
        guard let mode = TravelMode(rawValue: modeText) else {
            throw StoreError(code: .database, message: "timeline segment \(row["id"] as Int64): unknown mode '\(modeText)'")
        }
        return .trip(
            TimelineTrip(
                start: start, end: end, from: origin, to: Coordinate(latitude: row["to_latitude"], longitude: row["to_longitude"]),
                distance: row["distance"], movingTime: row["moving_time"], maxSpeed: row["max_speed"],
                averageSpeed: row["average_speed"], elevationGain: row["elevation_gain"], mode: mode, fixCount: row["fixes"]))
    }

    @discardableResult
    func writeTimeline<T>(doing action: String, _ updates: (Database) throws -> T) throws -> T {
        try writeHistory(synchronous: .normal, doing: action, updates)
    }
}
