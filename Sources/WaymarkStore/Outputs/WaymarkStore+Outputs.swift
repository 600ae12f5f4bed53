import Foundation
import GRDB
import WaymarkCore
import WaymarkOutputs

extension WaymarkStore {
    /// Adds an output whose cursors start at the newest event and fix: it is sent what happens
    /// from now on, not the history. Throws `.duplicateIdentifier` when the name is taken.
    public func addOutput(_ output: Output) throws -> Output {
        var added = output
        do {
            try database.write { db in
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM outputs WHERE name = ?)", arguments: [output.name]) == false else {
                    throw StoreError(code: .duplicateIdentifier, message: "an output named '\(output.name)' exists")
                }
                added.deliveredThrough = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) FROM events") ?? 0
                added.locationsThrough = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) FROM fixes") ?? 0
                let filter = String(decoding: try JSONEncoder().encode(output.filter), as: UTF8.self)
                try db.execute(
                    sql: """
                        INSERT INTO outputs (name, kind, format, target, secret, filter, keep_seconds, delivered_through, disabled, created_ns,
                                             location_seconds, locations_through)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)
                        """,
                    arguments: [output.name, output.kind.name, output.format.rawValue, output.kind.url, output.secret, filter, output.keepSeconds, added.deliveredThrough,
                                output.createdAt.nanosecondsSince1970, output.locationSeconds, added.locationsThrough])
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(code: .database, message: "adding output '\(output.name)': \(Self.describe(error))", path: path)
        }
        return added
    }

    /// An output from the configuration: added as `addOutput` does, or, when it exists, given
    /// the configuration's receiver, format, secret, filter, keep time and location interval
    /// (its cursors, dead letters and a 410's stop stay).
    public func saveConfiguredOutput(_ output: Output) throws {
        if try self.output(named: output.name) == nil {
            _ = try addOutput(output)
            return
        }
        let filter = String(decoding: (try? JSONEncoder().encode(output.filter)) ?? Data("{}".utf8), as: UTF8.self)
        try writeOutputs("updating output '\(output.name)'") { db in
            try db.execute(
                sql: """
                    UPDATE outputs SET kind = ?, format = ?, target = ?, secret = ?, filter = ?, keep_seconds = ?, location_seconds = ?
                    WHERE name = ?
                    """,
                arguments: [output.kind.name, output.format.rawValue, output.kind.url, output.secret, filter, output.keepSeconds, output.locationSeconds,
                            output.name])
        }
    }

    public func outputs() throws -> [Output] {
        try readOutputs(sql: "SELECT * FROM outputs ORDER BY name")
    }

    public func output(named name: String) throws -> Output? {
        try readOutputs(sql: "SELECT * FROM outputs WHERE name = ?", arguments: [name]).first
    }

    /// Removes the output and its dead letters; false when there was none.
    @discardableResult
    public func removeOutput(named name: String) throws -> Bool {
        try writeOutputs("removing output '\(name)'") { db in
            try db.execute(sql: "DELETE FROM outputs WHERE name = ?", arguments: [name])
            return db.changesCount > 0
        }
    }

    /// Moves the output's cursor to `sequence` (everything through it delivered or skipped).
    public func setOutputCursor(_ name: String, deliveredThrough sequence: Int64) throws {
        try writeOutputs("saving output '\(name)'") { db in
            try db.execute(
                sql: "UPDATE outputs SET delivered_through = MAX(delivered_through, ?) WHERE name = ?", arguments: [sequence, name])
        }
    }

    /// Stops the output (a receiver answered 410 Gone) with the reason.
    public func disableOutput(_ name: String, reason: String) throws {
        try writeOutputs("disabling output '\(name)'") { db in
            try db.execute(sql: "UPDATE outputs SET disabled = ? WHERE name = ?", arguments: [reason, name])
        }
    }

    /// Gives up on one event for the output: it goes to the dead letters (not re-queued). The
    /// cursor is the worker's to move: with several lanes in flight, an earlier event may still
    /// be on its way.
    public func deadLetter(_ sequence: Int64, output name: String, error: String, at time: Timestamp) throws {
        try writeOutputs("dead-lettering for output '\(name)'") { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO output_dead_letters (output, event_id, failed_ns, error) VALUES (?, ?, ?, ?)",
                arguments: [name, sequence, time.nanosecondsSince1970, error])
        }
    }

    /// Marks every dead letter of the output to be tried again; how many.
    @discardableResult
    public func requeueDeadLetters(output name: String) throws -> Int {
        try writeOutputs("re-queueing for output '\(name)'") { db in
            try db.execute(sql: "UPDATE output_dead_letters SET requeued = 1 WHERE output = ?", arguments: [name])
            return db.changesCount
        }
    }

    /// The events of the output's re-queued dead letters that are still in the history, oldest first.
    public func requeuedEvents(output name: String) throws -> [OutputEvent] {
        do {
            return try database.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT e.id, e.device, e.time_ns, e.kind, e.region, e.transition, e.record, e.latitude, e.longitude
                        FROM output_dead_letters d JOIN events e ON e.id = d.event_id
                        WHERE d.output = ? AND d.requeued = 1 ORDER BY e.id
                        """,
                    arguments: [name]
                ).map(Self.outputEvent)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(code: .database, message: "reading dead letters: \(Self.describe(error))", path: path)
        }
    }

    /// A re-queued dead letter's fate: delivered (the letter goes), or given up on again.
    public func settleRequeued(_ sequence: Int64, output name: String, delivered: Bool, error: String? = nil, at time: Timestamp) throws {
        try writeOutputs("settling a dead letter of output '\(name)'") { db in
            if delivered {
                try db.execute(sql: "DELETE FROM output_dead_letters WHERE output = ? AND event_id = ?", arguments: [name, sequence])
            } else {
                try db.execute(
                    sql: "UPDATE output_dead_letters SET requeued = 0, failed_ns = ?, error = ? WHERE output = ? AND event_id = ?",
                    arguments: [time.nanosecondsSince1970, error ?? "", name, sequence])
            }
        }
    }

    /// The dead letters of the output, oldest first: (event row id, when, why).
    public func deadLetters(output name: String) throws -> [(sequence: Int64, failed: Timestamp, error: String)] {
        do {
            return try database.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT event_id, failed_ns, error FROM output_dead_letters WHERE output = ? ORDER BY event_id",
                    arguments: [name]
                ).map { ($0["event_id"], Timestamp(nanosecondsSince1970: $0["failed_ns"]), $0["error"]) }
            }
        } catch {
            throw StoreError(code: .database, message: "reading dead letters: \(Self.describe(error))", path: path)
        }
    }

    /// Up to `limit` events after row `sequence`, in order: an output's next deliveries. Quiet
    /// events (imported history not asked to be delivered, docs/import.md) are not among them.
    public func outputEvents(after sequence: Int64, limit: Int) throws -> [OutputEvent] {
        do {
            return try database.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, device, time_ns, kind, region, transition, record, latitude, longitude FROM events
                        WHERE id > ? AND quiet = 0 ORDER BY id LIMIT ?
                        """,
                    arguments: [sequence, limit]
                ).map(Self.outputEvent)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(code: .database, message: "reading events for outputs: \(Self.describe(error))", path: path)
        }
    }

    static func outputEvent(_ row: Row) throws -> OutputEvent {
        let latitude: Double? = row["latitude"]
        let longitude: Double? = row["longitude"]
        return OutputEvent(
            sequence: row["id"], device: row["device"], time: Timestamp(nanosecondsSince1970: row["time_ns"]),
            kind: try storedKind(row, of: "event"), region: row["region"], transition: row["transition"], record: row["record"],
            coordinate: latitude.flatMap { latitude in longitude.map { Coordinate(latitude: latitude, longitude: $0) } })
    }

    /// The newest event's row id, 0 when there is none.
    public func newestEventID() throws -> Int64 {
        do {
            return try database.read { db in try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) FROM events") ?? 0 }
        } catch {
            throw StoreError(code: .database, message: "reading events: \(Self.describe(error))", path: path)
        }
    }

    private func readOutputs(sql: String, arguments: StatementArguments = []) throws -> [Output] {
        do {
            return try database.read { db in
                try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                    let filterText: String = row["filter"]
                    let kind: String = row["kind"]
                    return Output(
                        name: row["name"], kind: kind == "mqtt" ? .mqtt(url: row["target"]) : .webhook(url: row["target"]),
                        format: Output.Format(rawValue: row["format"]) ?? .cloudEvents, secret: row["secret"],
                        filter: try JSONDecoder().decode(OutputFilter.self, from: Data(filterText.utf8)),
                        keepSeconds: row["keep_seconds"], locationSeconds: row["location_seconds"], deliveredThrough: row["delivered_through"],
                        locationsThrough: row["locations_through"], disabled: row["disabled"],
                        createdAt: Timestamp(nanosecondsSince1970: row["created_ns"]))
                }
            }
        } catch {
            throw StoreError(code: .database, message: "reading outputs: \(Self.describe(error))", path: path)
        }
    }

    func writeOutputs<T>(_ doing: String, _ body: @escaping (Database) throws -> T) throws -> T {
        do {
            return try database.write(body)
        } catch {
            throw StoreError(code: .database, message: "\(doing): \(Self.describe(error))", path: path)
        }
    }
}
