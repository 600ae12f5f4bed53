import Foundation
import GRDB
import WaymarkCore

/// A handler as stored: its registration JSON and force-quit mark.
public struct StoredHandler: Sendable, Equatable {
    public var name: String
    public var registrationJSON: String
    public var forceQuit: Bool

    public init(name: String, registrationJSON: String, forceQuit: Bool = false) {
        self.name = name
        self.registrationJSON = registrationJSON
        self.forceQuit = forceQuit
    }
}

/// One event in a handler's queue.
public struct QueuedHandlerEvent: Sendable, Equatable {
    public var id: Int64
    public var handler: String
    public var time: Timestamp
    /// The launch reason it carries: `region`, `significantChange`, `visit`, `location`, …
    public var kind: EventKind
    /// The event's JSON object, as replay prints it.
    public var record: String
    /// Deliveries before this one (a repeat carries the same id).
    public var attempts: Int
    /// When it was queued (the daemon's clock; `time` is the event's own, a replay's past).
    public var queuedAt: Timestamp
}

extension WaymarkStore {
    /// Adds a handler; with `replace`, an existing one of that name is updated (its queue and
    /// force-quit mark kept). Throws `.duplicateIdentifier` when it exists and `replace` is off.
    public func saveHandler(name: String, registrationJSON: String, replace: Bool, at time: Timestamp) throws {
        try writeHistory(synchronous: .full, doing: "saving handler \(name)") { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM handlers WHERE name = ?", arguments: [name]) == true {
                guard replace else {
                    throw StoreError(code: .duplicateIdentifier, message: "a handler named '\(name)' is already registered", identifiers: [name])
                }
                try db.execute(sql: "UPDATE handlers SET registration = ? WHERE name = ?", arguments: [registrationJSON, name])
            } else {
                try db.execute(
                    sql: "INSERT INTO handlers (name, registration, created_ns) VALUES (?, ?, ?)",
                    arguments: [name, registrationJSON, time.nanosecondsSince1970])
            }
        }
    }

    public func handlers() throws -> [StoredHandler] {
        try readHandlers { db in
            try Row.fetchAll(db, sql: "SELECT name, registration, force_quit FROM handlers ORDER BY name").map {
                StoredHandler(name: $0["name"], registrationJSON: $0["registration"], forceQuit: $0["force_quit"])
            }
        }
    }

    /// Removes a handler with its queue; false when there was none.
    @discardableResult
    public func removeHandler(name: String) throws -> Bool {
        try writeHistory(synchronous: .full, doing: "removing handler \(name)") { db in
            try db.execute(sql: "DELETE FROM handlers WHERE name = ?", arguments: [name])
            return db.changesCount > 0
        }
    }

    /// Sets or clears the force-quit mark; false when there is no such handler.
    @discardableResult
    public func setForceQuit(_ on: Bool, handler name: String) throws -> Bool {
        try writeHistory(synchronous: .full, doing: "marking handler \(name)") { db in
            try db.execute(sql: "UPDATE handlers SET force_quit = ? WHERE name = ?", arguments: [on, name])
            return db.changesCount > 0
        }
    }

    /// Queues events durably (one transaction, synchronous=FULL) and returns their ids.
    public func enqueueHandlerEvents(
        _ events: [QueuedHandlerEvent.New], at now: Timestamp
    ) throws -> [Int64] {
        guard !events.isEmpty else { return [] }
        return try writeHistory(synchronous: .full, doing: "queuing handler events") { db in
            var ids: [Int64] = []
            for event in events {
                ids.append(try Self.insertHandlerEvent(event.handler, time: event.time, kind: event.kind, record: event.record, queuedAt: now, db))
            }
            return ids
        }
    }

    /// Inserts one queued handler event in the caller's transaction and returns its id.
    static func insertHandlerEvent(
        _ handler: String, time: Timestamp, kind: EventKind, record: String, queuedAt now: Timestamp, _ db: Database
    ) throws -> Int64 {
        try db.cachedStatement(
            sql: "INSERT INTO handler_events (handler, time_ns, kind, record, queued_ns) VALUES (?, ?, ?, ?, ?)"
        ).execute(arguments: [handler, time.nanosecondsSince1970, kind.rawValue, record, now.nanosecondsSince1970])
        return db.lastInsertedRowID
    }

    /// A handler's unacknowledged events with ids above `afterID`, oldest first.
    public func unacknowledgedEvents(handler: String, afterID: Int64 = 0, limit: Int = 256) throws -> [QueuedHandlerEvent] {
        try readHandlers { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, handler, time_ns, kind, record, attempts, queued_ns FROM handler_events
                    WHERE handler = ? AND acked_ns IS NULL AND id > ? ORDER BY id LIMIT ?
                    """,
                arguments: [handler, afterID, limit]
            ).map { row in
                let id: Int64 = row["id"]
                return QueuedHandlerEvent(
                    id: id, handler: row["handler"], time: Timestamp(nanosecondsSince1970: row["time_ns"]),
                    kind: try Self.storedKind(row, of: "handler event \(id)"), record: row["record"], attempts: row["attempts"],
                    queuedAt: Timestamp(nanosecondsSince1970: row["queued_ns"]))
            }
        }
    }

    /// Counts a delivery attempt of an event.
    public func markDelivered(eventID: Int64) throws {
        try writeHistory(synchronous: .normal, doing: "counting a delivery") { db in
            try db.execute(sql: "UPDATE handler_events SET attempts = attempts + 1 WHERE id = ?", arguments: [eventID])
        }
    }

    /// Records the handler's acknowledgement; false when the id is not its unacknowledged event.
    /// Committed with synchronous=NORMAL: a power cut may lose the acknowledgement, and then the
    /// event is sent once more (delivery is at least once), never lost.
    @discardableResult
    public func acknowledgeEvent(handler: String, id: Int64, at time: Timestamp) throws -> Bool {
        try writeHistory(synchronous: .normal, doing: "acknowledging event \(id)") { db in
            try db.execute(
                sql: "UPDATE handler_events SET acked_ns = ? WHERE id = ? AND handler = ? AND acked_ns IS NULL",
                arguments: [time.nanosecondsSince1970, id, handler])
            return db.changesCount > 0
        }
    }

    /// Appends a state change to the handler's log.
    public func logHandlerState(handler: String, state: String, reason: String, pid: Int32?, at time: Timestamp) throws {
        try writeHistory(synchronous: .normal, doing: "logging handler \(handler)") { db in
            try db.execute(
                sql: "INSERT INTO handler_log (handler, time_ns, state, reason, pid) VALUES (?, ?, ?, ?, ?)",
                arguments: [handler, time.nanosecondsSince1970, state, reason, pid])
        }
    }

    /// The handler's state changes, oldest first: (time, state, reason, pid).
    public func handlerLog(handler: String) throws -> [(time: Timestamp, state: String, reason: String, pid: Int32?)] {
        try readHandlers { db in
            try Row.fetchAll(
                db, sql: "SELECT time_ns, state, reason, pid FROM handler_log WHERE handler = ? ORDER BY id", arguments: [handler]
            ).map { (Timestamp(nanosecondsSince1970: $0["time_ns"]), $0["state"], $0["reason"], $0["pid"]) }
        }
    }

    /// Per handler: events queued in total and still unacknowledged.
    public func handlerEventCounts() throws -> [String: (queued: Int, unacknowledged: Int)] {
        try readHandlers { db in
            var counts: [String: (Int, Int)] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT handler, count(*) AS queued, count(*) - count(acked_ns) AS open FROM handler_events GROUP BY handler")
            {
                counts[row["handler"]] = (row["queued"], row["open"])
            }
            return counts
        }
    }

    private func readHandlers<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch {
            throw StoreError(code: .database, message: "reading handlers: \(Self.describe(error))", path: path)
        }
    }
}
