import Foundation
import GRDB
import WaymarkCore

extension WaymarkStore {
    /// Starts an import, or takes up the unfinished one with the same device and fingerprint
    /// (the same command after a SIGKILL or a failed file): its fixes stay, and the files it
    /// finished are not read again.
    public func beginImport(
        device: String, sources: [String], fingerprint: String, deliver: Bool, bytesTotal: Int64?, at time: Timestamp
    ) throws -> (record: ImportRecord, resumed: Bool) {
        try writeImports(doing: "starting an import") { db in
            if let id = try Int64.fetchOne(
                db, sql: "SELECT id FROM imports WHERE device = ? AND fingerprint = ? AND state <> 'done' ORDER BY id DESC LIMIT 1",
                arguments: [device, fingerprint])
            {
                try db.execute(
                    sql: "UPDATE imports SET state = 'reading', error = NULL, finished_ns = NULL, deliver = ?, bytes_read = 0 WHERE id = ?",
                    arguments: [deliver, id])
                return (try Self.importRecord(id, db)!, true)
            }
            let sourcesJSON = String(decoding: try JSONEncoder().encode(sources), as: UTF8.self)
            try db.execute(
                sql: """
                    INSERT INTO imports (device, state, started_ns, sources, fingerprint, deliver, bytes_total)
                    VALUES (?, 'reading', ?, ?, ?, ?, ?)
                    """,
                arguments: [device, time.nanosecondsSince1970, sourcesJSON, fingerprint, deliver, bytesTotal])
            return (try Self.importRecord(db.lastInsertedRowID, db)!, false)
        }
    }

    /// The file with this digest that an import for `device` read whole, if any: the newest.
    public func importedFile(device: String, digest: String) throws -> ImportFileRecord? {
        try readImports(doing: "looking for an imported file") { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT f.* FROM import_files f JOIN imports i ON i.id = f.import_id
                    WHERE f.digest = ? AND i.device = ? AND f.state = 'done' ORDER BY f.import_id DESC LIMIT 1
                    """,
                arguments: [digest, device]
            ).map(Self.importFile)
        }
    }

    /// Records that `file` is being read by import `importID` (again, after an interruption).
    public func beginImportFile(_ importID: Int64, name: String, digest: String, size: Int64) throws {
        try writeImports(doing: "starting to read \(name)") { db in
            try db.execute(
                sql: """
                    INSERT INTO import_files (import_id, name, digest, size, state) VALUES (?, ?, ?, ?, 'reading')
                    ON CONFLICT (import_id, name) DO UPDATE SET digest = excluded.digest, size = excluded.size,
                        state = 'reading', error = NULL
                    """,
                arguments: [importID, name, digest, size])
        }
    }

    /// Records how reading `name` ended: `done`, or `failed` with the reason (what was read stays).
    public func finishImportFile(_ importID: Int64, name: String, error: String?) throws {
        try writeImports(doing: "finishing \(name)") { db in
            try db.execute(
                sql: "UPDATE import_files SET state = ?, error = ? WHERE import_id = ? AND name = ?",
                arguments: [error == nil ? "done" : "failed", error, importID, name])
        }
    }

    /// Moves import `id` to `state` (and records when it finished, and why it failed).
    public func setImportState(_ id: Int64, _ state: ImportRecord.State, error: String? = nil, at time: Timestamp) throws {
        try writeImports(doing: "updating import \(id)") { db in
            let finished: Int64? = state == .done || state == .failed ? time.nanosecondsSince1970 : nil
            try db.execute(
                sql: "UPDATE imports SET state = ?, error = ?, finished_ns = ? WHERE id = ?",
                arguments: [state.rawValue, error, finished, id])
        }
    }

    /// Import `id`, as stored now.
    public func importRecord(_ id: Int64) throws -> ImportRecord? {
        try readImports(doing: "reading import \(id)") { db in try Self.importRecord(id, db) }
    }

    /// Every import, newest first; only `device`'s when given.
    public func importRecords(device: String? = nil) throws -> [ImportRecord] {
        try readImports(doing: "listing imports") { db in
            let ids = try Int64.fetchAll(
                db, sql: "SELECT id FROM imports WHERE ?1 IS NULL OR device = ?1 ORDER BY id DESC", arguments: [device])
            return try ids.compactMap { try Self.importRecord($0, db) }
        }
    }

    /// The files of import `id`, in the order they were started.
    public func importFiles(_ id: Int64) throws -> [ImportFileRecord] {
        try readImports(doing: "reading import \(id)'s files") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM import_files WHERE import_id = ? ORDER BY rowid", arguments: [id]).map(Self.importFile)
        }
    }

    static func importRecord(_ id: Int64, _ db: Database) throws -> ImportRecord? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM imports WHERE id = ?", arguments: [id]) else { return nil }
        let sourcesJSON: String = row["sources"]
        let stateText: String = row["state"]
        guard let state = ImportRecord.State(rawValue: stateText) else {
            throw StoreError(code: .database, message: "import \(id): unknown state '\(stateText)'")
        }
        return ImportRecord(
            id: row["id"], device: row["device"], state: state, started: Timestamp(nanosecondsSince1970: row["started_ns"]),
            finished: (row["finished_ns"] as Int64?).map(Timestamp.init(nanosecondsSince1970:)),
            sources: (try? JSONDecoder().decode([String].self, from: Data(sourcesJSON.utf8))) ?? [], fingerprint: row["fingerprint"],
            deliver: row["deliver"], bytesTotal: row["bytes_total"], bytesRead: row["bytes_read"], fixesAdded: row["fixes_added"],
            fixesPresent: row["fixes_present"], reported: row["reported"], events: row["events"], error: row["error"])
    }

    static func importFile(_ row: Row) -> ImportFileRecord {
        ImportFileRecord(
            importID: row["import_id"], name: row["name"], digest: row["digest"], size: row["size"],
            state: ImportFileRecord.State(rawValue: row["state"]) ?? .failed, fixesAdded: row["fixes_added"],
            fixesPresent: row["fixes_present"], reported: row["reported"], error: row["error"])
    }

    func writeImports<T>(doing action: String, _ updates: (Database) throws -> T) throws -> T {
        try writeHistory(synchronous: .normal, doing: action, updates)
    }

    func readImports<T>(doing action: String, _ value: (Database) throws -> T) throws -> T {
        try read(doing: action, value)
    }
}
