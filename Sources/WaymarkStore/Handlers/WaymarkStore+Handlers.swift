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

    /// Removes a handler with its queue and its services' marks (a handler registered later
    /// under the same name starts afresh); false when there was none.
    @discardableResult
    public func removeHandler(name: String) throws -> Bool {
        try writeHistory(synchronous: .full, doing: "removing handler \(name)") { db in
            try db.execute(sql: "DELETE FROM handlers WHERE name = ?", arguments: [name])
            let removed = db.changesCount > 0
            try db.execute(sql: "DELETE FROM service_marks WHERE subscriber = ?", arguments: ["handler:" + name])
            return removed
        }
    }

    /// Sets or clears the force-quit mark, with the machine's boot it was set in (`bootID`);
    /// false when there is no such handler.
    @discardableResult
    public func setForceQuit(_ on: Bool, handler name: String, bootID: String? = WaymarkStore.bootID) throws -> Bool {
        try writeHistory(synchronous: .full, doing: "marking handler \(name)") { db in
            try db.execute(
                sql: "UPDATE handlers SET force_quit = ?, force_quit_boot = ? WHERE name = ?", arguments: [on, on ? bootID : nil, name])
            return db.changesCount > 0
        }
    }

    /// Clears the force-quit marks set before the machine last started (docs/semantics.md §1.5:
    /// a reboot clears them), and takes marks that name no boot as this one's. Returns the
    /// handlers whose mark was cleared.
    @discardableResult
    public func clearForceQuitMarks(setBefore bootID: String) throws -> [String] {
        try writeHistory(synchronous: .full, doing: "clearing force-quit marks") { db in
            let stale = try String.fetchAll(
                db, sql: "SELECT name FROM handlers WHERE force_quit = 1 AND force_quit_boot IS NOT NULL AND force_quit_boot <> ? ORDER BY name",
                arguments: [bootID])
            try db.execute(
                sql: "UPDATE handlers SET force_quit = 0, force_quit_boot = NULL WHERE force_quit = 1 AND force_quit_boot IS NOT NULL AND force_quit_boot <> ?",
                arguments: [bootID])
            try db.execute(sql: "UPDATE handlers SET force_quit_boot = ? WHERE force_quit = 1 AND force_quit_boot IS NULL", arguments: [bootID])
            return stale
        }
    }

    /// This machine's boot (the kernel's random boot id); nil where /proc does not say.
    public static let bootID: String? = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines)

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

    func readHandlers<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch {
            throw StoreError(code: .database, message: "reading handlers: \(Self.describe(error))", path: path)
        }
    }
}
