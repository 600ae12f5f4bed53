import Foundation
import GRDB
import WaymarkCore
import WaymarkDevices

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
    /// The device whose fixes caused it (docs/devices.md).
    public var device: String = Device.localName
}

/// A handler's acknowledgement of one of its events, at `time` (the daemon's clock).
public struct HandlerAcknowledgement: Sendable, Equatable {
    public var handler: String
    public var id: Int64
    public var time: Timestamp

    public init(handler: String, id: Int64, time: Timestamp) {
        self.handler = handler
        self.id = id
        self.time = time
    }
}

/// Handlers' queues: events written before anyone is given them, counted deliveries, and
/// acknowledgements (docs/handlers.md, docs/durability.md).
extension WaymarkStore {
    /// Queues events durably (one transaction, synchronous=FULL) and returns their ids.
    public func enqueueHandlerEvents(
        _ events: [QueuedHandlerEvent.New], at now: Timestamp, device: String = Device.localName
    ) throws -> [Int64] {
        guard !events.isEmpty else { return [] }
        return try writeHistory(synchronous: .full, doing: "queuing handler events") { db in
            var ids: [Int64] = []
            for event in events {
                ids.append(try Self.insertHandlerEvent(event.handler, time: event.time, kind: event.kind, record: event.record, queuedAt: now, device: device, db))
            }
            return ids
        }
    }

    /// Inserts one queued handler event in the caller's transaction and returns its id.
    static func insertHandlerEvent(
        _ handler: String, time: Timestamp, kind: EventKind, record: String, queuedAt now: Timestamp, device: String, _ db: Database
    ) throws -> Int64 {
        try db.cachedStatement(
            sql: "INSERT INTO handler_events (handler, time_ns, kind, record, queued_ns, device) VALUES (?, ?, ?, ?, ?, ?)"
        ).execute(arguments: [handler, time.nanosecondsSince1970, kind.rawValue, record, now.nanosecondsSince1970, device])
        return db.lastInsertedRowID
    }

    /// A handler's unacknowledged events with ids above `afterID`, oldest first.
    public func unacknowledgedEvents(handler: String, afterID: Int64 = 0, limit: Int = 256) throws -> [QueuedHandlerEvent] {
        // One SELECT is a consistent snapshot by itself: no transaction around it (GRDB's
        // `unsafeRead`), a prepared statement kept, since the supervisor reads per delivery.
        do {
            return try database.unsafeRead { db in
                let statement = try db.cachedStatement(
                    sql: """
                        SELECT id, handler, time_ns, kind, record, attempts, queued_ns, device FROM handler_events
                        WHERE handler = ? AND acked_ns IS NULL AND id > ? ORDER BY id LIMIT ?
                        """)
                return try Row.fetchAll(statement, arguments: [handler, afterID, limit]).map { row in
                    let id: Int64 = row["id"]
                    return QueuedHandlerEvent(
                        id: id, handler: row["handler"], time: Timestamp(nanosecondsSince1970: row["time_ns"]),
                        kind: try Self.storedKind(row, of: "handler event \(id)"), record: row["record"], attempts: row["attempts"],
                        queuedAt: Timestamp(nanosecondsSince1970: row["queued_ns"]), device: row["device"])
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(code: .database, message: "reading handlers: \(Self.describe(error))", path: path)
        }
    }

    /// Counts a delivery attempt of each event, in one transaction (synchronous=NORMAL: it
    /// survives the daemon's death, which is what the count is for).
    public func markDelivered(eventIDs: [Int64]) throws {
        guard !eventIDs.isEmpty else { return }
        try writeHistory(synchronous: .normal, doing: "counting \(eventIDs.count) deliveries") { db in
            let statement = try db.cachedStatement(sql: "UPDATE handler_events SET attempts = attempts + 1 WHERE id = ?")
            for id in eventIDs { try statement.execute(arguments: [id]) }
        }
    }

    /// Records handlers' acknowledgements in one transaction; returns how many were of an
    /// event still unacknowledged (a repeat or another handler's id changes nothing).
    /// Committed with synchronous=NORMAL: a power cut may lose an acknowledgement, and then the
    /// event is sent once more (delivery is at least once), never lost.
    @discardableResult
    public func acknowledgeEvents(_ acknowledgements: [HandlerAcknowledgement]) throws -> Int {
        guard !acknowledgements.isEmpty else { return 0 }
        return try writeHistory(synchronous: .normal, doing: "acknowledging \(acknowledgements.count) events") { db in
            let statement = try db.cachedStatement(
                sql: "UPDATE handler_events SET acked_ns = ? WHERE id = ? AND handler = ? AND acked_ns IS NULL")
            var changed = 0
            for ack in acknowledgements {
                try statement.execute(arguments: [ack.time.nanosecondsSince1970, ack.id, ack.handler])
                changed += db.changesCount
            }
            return changed
        }
    }

    /// Records one acknowledgement; false when the id is not the handler's unacknowledged event.
    @discardableResult
    public func acknowledgeEvent(handler: String, id: Int64, at time: Timestamp) throws -> Bool {
        try acknowledgeEvents([HandlerAcknowledgement(handler: handler, id: id, time: time)]) == 1
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
}
