import GRDB
import Logging
import WaymarkCore
import WaymarkDevices
import WaymarkRegions

// Durability of history writes.
//
// SQLite's `synchronous` belongs to a connection, not a table, so the writer stays at FULL (the
// regions' setting) and drops to NORMAL only around fix and gap transactions:
//
// - fixes, gaps (NORMAL): an acknowledged write survives the daemon being killed (SIGKILL, a
//   crash): the WAL is in the OS page cache. A power cut may lose the most recent
//   acknowledged fixes and gaps (docs/platform.md: about half of the simulated cuts lost the latest
//   NORMAL commits, never with corruption). Fixes arrive every second; losing the last few to a
//   power cut is acceptable, an fsync per fix is not.
// - events (FULL): an acknowledged event survives a power cut, because events are delivered to
//   handlers later from the store. An event's fsync of the WAL also makes every earlier fix
//   and gap durable (the WAL is one file, written in order).
// - regions (FULL), as before; retention deletes (NORMAL: a lost delete only brings back rows
//   the next pruning deletes again).

extension WaymarkStore {
    /// Records one accepted fix in its own transaction and returns its row id.
    ///
    /// Durability: acknowledged (returned) means it survives the daemon being killed with
    /// SIGKILL — a killed daemon loses at most the fix being written — but not necessarily a
    /// power cut (WAL with `synchronous=NORMAL`); the next recorded event makes it durable too.
    ///
    /// - Parameter source: where the fix came from, e.g. `gpsd:127.0.0.1:2947` or `replay:ride.gpx`.
    /// - Throws: `StoreError` `.invalidRecord` for an untimed fix, a coordinate outside
    ///   ±90°/±180°, negative accuracies, DOPs or satellite counts, or an empty source;
    ///   `.database` for other failures.
    @discardableResult
    public func recordFix(_ fix: Fix, source: String, device: String = Device.localName) throws -> Int64 {
        try recordFix(fix, source: source, device: device, synchronous: .normal)
    }

    /// `recordFix` with an explicit synchronous level (the benchmark compares them).
    func recordFix(_ fix: Fix, source: String, device: String = Device.localName, synchronous: SynchronousLevel) throws -> Int64 {
        try writeHistory(synchronous: synchronous, doing: "recording a fix") { db in
            try Self.insert(fix, source: source, device: device, db)
        }
    }

    /// Records `fixes` in one transaction (for high-rate ingest): all of them or, when one is
    /// refused, none. Returns their row ids in order. Durability as for `recordFix`.
    ///
    /// - Throws: as `recordFix`; the message names the position of the refused fix.
    @discardableResult
    public func recordFixes(_ fixes: [Fix], source: String, device: String = Device.localName) throws -> [Int64] {
        try writeHistory(synchronous: .normal, doing: "recording \(fixes.count) fixes") { db in
            var ids: [Int64] = []
            ids.reserveCapacity(fixes.count)
            for (position, fix) in fixes.enumerated() {
                do {
                    ids.append(try Self.insert(fix, source: source, device: device, db))
                } catch var error as StoreError {
                    error.message = "fix \(position) of \(fixes.count): \(error.message)"
                    throw error
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    throw StoreError(
                        code: .invalidRecord,
                        message: "fix \(position) of \(fixes.count): the store refused it (\(Self.describe(error)))")
                }
            }
            return ids
        }
    }

    /// Records that there was no fix at `time` (gpsd mode 0/1: `no-fix`; the source went
    /// away: `disconnected`), in its own transaction. Durability as for `recordFix`.
    ///
    /// - Throws: `StoreError` `.invalidRecord` for an empty reason or source, `.database`.
    @discardableResult
    public func recordGap(time: Timestamp, reason: String, source: String, device: String = Device.localName) throws -> Int64 {
        try writeHistory(synchronous: .normal, doing: "recording a gap") { db in
            try Self.insertGap(time: time, reason: reason, source: source, device: device, db)
        }
    }

    /// Records an event in its own transaction and returns its row id (`event.id` is ignored).
    ///
    /// Durability: acknowledged means it survives a power cut (`synchronous=FULL`), because
    /// handlers are given events from the store later.
    ///
    /// - Throws: `StoreError` `.invalidRecord` when `record` is not one JSON object on one line,
    ///   the kind is empty, or the coordinate is out of range; `.database` for other failures.
    @discardableResult
    public func recordEvent(_ event: StoredEvent) throws -> Int64 {
        try recordEvent(event, synchronous: .full)
    }

    func recordEvent(_ event: StoredEvent, synchronous: SynchronousLevel) throws -> Int64 {
        try writeHistory(synchronous: synchronous, doing: "recording a \(event.kind) event") { db in
            try Self.insert(event, device: event.device, db)
        }
    }

    /// The latest fix by time (the latest recorded among equal times), or `nil` when there is none.
    public func lastFix() throws -> StoredFix? {
        do {
            return try database.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT \(Self.fixColumns) FROM fixes ORDER BY time_ns DESC, id DESC LIMIT 1"
                ).map(Self.storedFix)
            }
        } catch {
            throw storeError(error, doing: "reading the last fix")
        }
    }

    /// Streams the history selected by `query` to `body`, in time order, without loading it
    /// into memory: each table is read by a cursor over its time index and the three are merged.
    ///
    /// Order: by time; at equal times fixes come first, then gaps, then events (an event
    /// follows the fix that caused it); within a table, in recording order.
    ///
    /// `body` runs while a read connection is held, on a consistent snapshot (writes that commit
    /// meanwhile are not seen); it must not use this store. An error it throws stops the
    /// stream and is rethrown unchanged.
    ///
    /// - Throws: whatever `body` throws; `StoreError` `.database` for SQLite failures.
    public func history(_ query: HistoryQuery, _ body: (HistoryItem) throws -> Void) throws {
        let limit = query.limit.map { max(0, $0) }
        if query.kinds.isEmpty || limit == 0 { return }
        do {
            try database.read { db in
                var heads: [(item: HistoryItem?, cursor: AnyCursor<HistoryItem>)] = []
                for kind in HistoryKind.allCases where query.kinds.contains(kind) {
                    let cursor = try Self.cursor(kind, query: query, limit: limit, db)
                    heads.append((try cursor.next(), cursor))
                }
                var delivered = 0
                while limit.map({ delivered < $0 }) ?? true {
                    var earliest: Int? = nil
                    for index in heads.indices {
                        guard let item = heads[index].item else { continue }
                        if let best = earliest, let current = heads[best].item, !Self.precedes(item, current) {
                            continue
                        }
                        earliest = index
                    }
                    guard let index = earliest, let item = heads[index].item else { break }
                    heads[index].item = try heads[index].cursor.next()
                    do {
                        try body(item)
                    } catch {
                        throw BodyError(error: error)
                    }
                    delivered += 1
                }
            }
        } catch let error as BodyError {
            throw error.error
        } catch {
            throw storeError(error, doing: "reading the history")
        }
    }

    /// Deletes every fix, gap and event before `cutoff` (exclusive: a record at `cutoff` stays),
    /// and the energy ledger's hours that ended by then, and returns how many rows were deleted.
    ///
    /// Deletes in batches of 1,000 rows, each its own short transaction, so the daemon's
    /// writes wait at most one batch. Not atomic: readers may see a partly pruned history,
    /// which is always a suffix of the old one per table.
    @discardableResult
    public func pruneHistory(before cutoff: Timestamp) throws -> Int {
        try pruneHistory(before: cutoff, batchSize: 1_000)
    }

    func pruneHistory(before cutoff: Timestamp, batchSize: Int) throws -> Int {
        var deleted: [String: Int] = [:]
        for table in ["fixes", "gaps", "events"] {
            while true {
                let count = try writeHistory(synchronous: .normal, doing: "pruning \(table)") { db in
                    try db.execute(
                        sql: """
                            DELETE FROM \(table) WHERE id IN (
                                SELECT id FROM \(table) WHERE time_ns < ? ORDER BY time_ns LIMIT ?)
                            """,
                        arguments: [cutoff.nanosecondsSince1970, batchSize])
                    return db.changesCount
                }
                deleted[table, default: 0] += count
                if count < batchSize { break }
            }
        }
        // The energy ledger's hours that ended by the cutoff (a few dozen rows an hour: one statement).
        deleted["energy"] = try writeHistory(synchronous: .normal, doing: "pruning energy") { db in
            try db.execute(
                sql: "DELETE FROM energy WHERE hour_ns + 3600000000000 <= ?", arguments: [cutoff.nanosecondsSince1970])
            return db.changesCount
        }
        deleted["phone_energy"] = try writeHistory(synchronous: .normal, doing: "pruning phone energy") { db in
            try db.execute(
                sql: "DELETE FROM phone_energy WHERE hour_ns + 3600000000000 <= ?", arguments: [cutoff.nanosecondsSince1970])
            return db.changesCount
        }
        let total = deleted.values.reduce(0, +)
        logger.info(
            "Pruned history",
            metadata: [
                "history.before": "\(cutoff.rfc3339)", "history.fixes": "\(deleted["fixes"] ?? 0)",
                "history.gaps": "\(deleted["gaps"] ?? 0)", "history.events": "\(deleted["events"] ?? 0)",
                "history.energy": "\(deleted["energy"] ?? 0)",
            ])
        return total
    }

    /// How many fixes, gaps and events the history holds (for status). Counts whole tables:
    /// O(rows), about a millisecond per 100,000 rows.
    public func historyCounts() throws -> (fixes: Int, gaps: Int, events: Int) {
        do {
            return try database.read { db in
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT (SELECT count(*) FROM fixes), (SELECT count(*) FROM gaps), (SELECT count(*) FROM events)
                        """)
                return (row?[0] ?? 0, row?[1] ?? 0, row?[2] ?? 0)
            }
        } catch {
            throw storeError(error, doing: "counting the history")
        }
    }
}

// MARK: - Writing

/// SQLite's `PRAGMA synchronous` levels the store uses.
enum SynchronousLevel: String, Sendable {
    /// WAL: commits are not fsynced (checkpoints are); survives process death, not power loss.
    case normal = "NORMAL"
    /// WAL: every commit fsyncs the WAL; survives power loss.
    case full = "FULL"
}

extension WaymarkStore {
    /// Runs `updates` in one immediate transaction on the writer at `synchronous`, then puts
    /// the writer back to FULL (its resting level). SQLite refuses to change the level inside a
    /// transaction, hence the transaction is opened here rather than by `database.write`.
    func writeHistory<T>(
        synchronous: SynchronousLevel, doing action: String, _ updates: (Database) throws -> T
    ) throws -> T {
        do {
            return try database.writeWithoutTransaction { db in
                if synchronous != .full { try db.execute(sql: "PRAGMA synchronous = \(synchronous.rawValue)") }
                var result: T?
                do {
                    try db.inTransaction(.immediate) {
                        result = try updates(db)
                        return .commit
                    }
                } catch {
                    if synchronous != .full { try? db.execute(sql: "PRAGMA synchronous = FULL") }
                    throw error
                }
                if synchronous != .full { try db.execute(sql: "PRAGMA synchronous = FULL") }
                guard let result else { preconditionFailure("committed transaction without a result") }
                return result
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw StoreError(
                code: .invalidRecord, message: "\(action): the store refused it (\(Self.describe(error)))",
                path: path)
        } catch {
            throw storeError(error, doing: action)
        }
    }

    /// Inserts one gap row in the caller's transaction and returns its row id.
    static func insertGap(time: Timestamp, reason: String, source: String, device: String, _ db: Database) throws -> Int64 {
        try db.cachedStatement(sql: "INSERT INTO gaps (time_ns, reason, source, device) VALUES (?, ?, ?, ?)")
            .execute(arguments: [time.nanosecondsSince1970, reason, source, device])
        return db.lastInsertedRowID
    }

    /// Inserts one event row in the caller's transaction (`event.id` is ignored) and returns its
    /// row id. An imported event carries its import's id and, unless it is to be delivered, `quiet`.
    static func insert(_ event: StoredEvent, device: String, importID: Int64? = nil, quiet: Bool = false, _ db: Database) throws -> Int64 {
        try db.cachedStatement(
            sql: """
                INSERT INTO events (time_ns, kind, region, transition, latitude, longitude, record, device, import_id, quiet)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).executeBinding { row in
            row.add(event.time.nanosecondsSince1970)
            row.add(event.kind.rawValue)
            row.add(event.region)
            row.add(event.transition?.rawValue)
            row.add(event.coordinate?.latitude)
            row.add(event.coordinate?.longitude)
            row.add(event.record)
            row.add(device)
            row.add(importID)
            row.add(Int64(quiet ? 1 : 0))
        }
        return db.lastInsertedRowID
    }

    /// Inserts one fix row (with its POINT) in the caller's transaction and returns its row id;
    /// an imported fix carries its import's id.
    static func insert(_ fix: Fix, source: String, device: String, importID: Int64? = nil, _ db: Database) throws -> Int64 {
        guard let time = fix.time else {
            throw StoreError(
                code: .invalidRecord,
                message: "an untimed fix cannot be placed in the history; only timed fixes are recorded")
        }
        let c = fix.coordinate
        try db.cachedStatement(
            sql: """
                INSERT INTO fixes (
                    time_ns, latitude, longitude, altitude, horizontal_accuracy, vertical_accuracy,
                    latitude_accuracy, longitude_accuracy, hdop, vdop, pdop, satellites, mode, speed, course,
                    source, geometry, device, import_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, MakePoint(?, ?, 4326), ?, ?)
                """
        ).executeBinding { row in
            row.add(time.nanosecondsSince1970)
            // One by one, not a loop over an array literal: that array was a heap allocation per fix.
            row.add(c.latitude)
            row.add(c.longitude)
            row.add(fix.altitude)
            row.add(fix.horizontalAccuracy)
            row.add(fix.verticalAccuracy)
            row.add(fix.latitudeAccuracy)
            row.add(fix.longitudeAccuracy)
            row.add(fix.hdop)
            row.add(fix.vdop)
            row.add(fix.pdop)
            row.add(fix.satellites)
            row.add(fix.mode?.rawValue)
            row.add(fix.speed)
            row.add(fix.course)
            row.add(source)
            row.add(c.longitude)
            row.add(c.latitude)
            row.add(device)
            row.add(importID)
        }
        return db.lastInsertedRowID
    }
}

// MARK: - Reading

extension WaymarkStore {
    static let fixColumns = """
        id, time_ns, latitude, longitude, altitude, horizontal_accuracy, vertical_accuracy, \
        latitude_accuracy, longitude_accuracy, hdop, vdop, pdop, satellites, mode, speed, course, source, device
        """

    /// A stored `mode`, typed; a value no Waymark version writes is an error naming the fix.
    static func fixMode(_ text: String?, fix id: Int64) throws -> FixMode? {
        try text.map { text in
            guard let mode = FixMode(rawValue: text) else {
                throw StoreError(code: .database, message: "fix \(id): unknown mode '\(text)'")
            }
            return mode
        }
    }

    static func storedFix(_ row: Row) throws -> StoredFix {
        let mode = try fixMode(row["mode"], fix: row["id"])
        let fix = Fix(
            time: Timestamp(nanosecondsSince1970: row["time_ns"]),
            coordinate: Coordinate(latitude: row["latitude"], longitude: row["longitude"]),
            altitude: row["altitude"], horizontalAccuracy: row["horizontal_accuracy"],
            verticalAccuracy: row["vertical_accuracy"], hdop: row["hdop"], vdop: row["vdop"], pdop: row["pdop"],
            satellites: row["satellites"], mode: mode, speed: row["speed"], course: row["course"],
            latitudeAccuracy: row["latitude_accuracy"], longitudeAccuracy: row["longitude_accuracy"])
        return StoredFix(id: row["id"], fix: fix, source: row["source"], device: row["device"])
    }

    static func storedGap(_ row: Row) -> StoredGap {
        StoredGap(
            id: row["id"], time: Timestamp(nanosecondsSince1970: row["time_ns"]), reason: row["reason"],
            source: row["source"], device: row["device"])
    }

    /// The `kind` column of an `events` or `handler_events` row (`what` names it); a kind no
    /// Waymark version writes is an error naming the row, never passed on as text.
    static func storedKind(_ row: Row, of what: String) throws -> EventKind {
        let text: String = row["kind"]
        guard let kind = EventKind(rawValue: text) else {
            throw StoreError(code: .database, message: "\(what): unknown kind '\(text)'")
        }
        return kind
    }

    /// An `events` row, its kind and transition typed; a value no Waymark version writes is an
    /// error naming the row.
    static func storedEvent(_ row: Row) throws -> StoredEvent {
        let latitude: Double? = row["latitude"]
        let longitude: Double? = row["longitude"]
        var coordinate: Coordinate? = nil
        if let latitude, let longitude { coordinate = Coordinate(latitude: latitude, longitude: longitude) }
        let id: Int64 = row["id"]
        let kind = try storedKind(row, of: "event \(id)")
        let transitionText: String? = row["transition"]
        let transition = try transitionText.map { text in
            guard let transition = RegionTransition.Kind(rawValue: text) else {
                throw StoreError(code: .database, message: "event \(id): unknown transition '\(text)'")
            }
            return transition
        }
        return StoredEvent(
            id: id, time: Timestamp(nanosecondsSince1970: row["time_ns"]), kind: kind,
            region: row["region"], transition: transition, coordinate: coordinate, record: row["record"], device: row["device"],
            importID: row["import_id"])
    }

    /// A cursor over one table's part of the query, in `(time_ns, id)` order straight from the
    /// table's time index (no sort, nothing buffered).
    static func cursor(_ kind: HistoryKind, query: HistoryQuery, limit: Int?, _ db: Database) throws
        -> AnyCursor<HistoryItem>
    {
        let (table, columns): (String, String) =
            switch kind {
            case .fix: ("fixes", fixColumns)
            case .gap: ("gaps", "id, time_ns, reason, source, device")
            case .event: ("events", eventColumns)
            }
        let (sql, arguments) = selection(from: table, columns: columns, query: query, limit: limit)
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        switch kind {
        case .fix: return AnyCursor(rows.map { try storedFix($0) }.map { HistoryItem.fix($0) })
        case .gap: return AnyCursor(rows.map { HistoryItem.gap(storedGap($0)) })
        case .event: return AnyCursor(rows.map { try storedEvent($0) }.map { HistoryItem.event($0) })
        }
    }

    /// `SELECT columns FROM table [WHERE time range] ORDER BY time_ns, id [LIMIT n]`.
    static func selection(from table: String, columns: String, query: HistoryQuery, limit: Int?)
        -> (String, StatementArguments)
    {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let from = query.from {
            conditions.append("time_ns >= ?")
            arguments += [from.nanosecondsSince1970]
        }
        if let to = query.to {
            conditions.append("time_ns < ?")
            arguments += [to.nanosecondsSince1970]
        }
        if let devices = query.devices {
            conditions.append("device IN (\(devices.map { _ in "?" }.joined(separator: ", ")))")
            for device in devices.sorted() { arguments += [device] }
        }
        var sql = "SELECT \(columns) FROM \(table)"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY time_ns, id"
        if let limit {
            sql += " LIMIT ?"
            arguments += [limit]
        }
        return (sql, arguments)
    }

    /// History order: time, then fixes before gaps before events, then row id.
    static func precedes(_ a: HistoryItem, _ b: HistoryItem) -> Bool {
        if a.time != b.time { return a.time < b.time }
        let rank: (HistoryItem) -> Int = {
            switch $0 {
            case .fix: 0
            case .gap: 1
            case .event: 2
            }
        }
        if rank(a) != rank(b) { return rank(a) < rank(b) }
        return a.id < b.id
    }
}

/// Carries an error thrown by a `history` body through GRDB unchanged.
private struct BodyError: Error {
    var error: any Error
}
