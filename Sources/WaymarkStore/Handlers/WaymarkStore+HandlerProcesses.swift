import GRDB
import WaymarkCore

/// A handler process the daemon launched and has not yet seen end (`v14-handler-processes`).
public struct StoredHandlerProcess: Sendable, Equatable {
    public var handler: String
    public var pid: Int32
    /// When it started, in clock ticks after boot (field 22 of /proc/PID/stat).
    public var startTicks: UInt64
    /// /proc/sys/kernel/random/boot_id of the boot it ran in.
    public var bootID: String
    public var launched: Timestamp

    public init(handler: String, pid: Int32, startTicks: UInt64, bootID: String, launched: Timestamp) {
        self.handler = handler
        self.pid = pid
        self.startTicks = startTicks
        self.bootID = bootID
        self.launched = launched
    }
}

extension WaymarkStore {
    public func recordHandlerProcess(_ process: StoredHandlerProcess) throws {
        try writeHandlerProcesses("recording a handler process") { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO handler_processes (handler, pid, start_ticks, boot_id, launched_ns) VALUES (?, ?, ?, ?, ?)",
                arguments: [process.handler, process.pid, Int64(process.startTicks), process.bootID, process.launched.nanosecondsSince1970])
        }
    }

    public func forgetHandlerProcess(pid: Int32, bootID: String) throws {
        try writeHandlerProcesses("forgetting a handler process") { db in
            try db.execute(sql: "DELETE FROM handler_processes WHERE pid = ? AND boot_id = ?", arguments: [pid, bootID])
        }
    }

    /// Every recorded process, oldest launch first.
    public func handlerProcesses() throws -> [StoredHandlerProcess] {
        do {
            return try database.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM handler_processes ORDER BY launched_ns, pid").map { row in
                    StoredHandlerProcess(
                        handler: row["handler"], pid: row["pid"], startTicks: UInt64(max(0, row["start_ticks"] as Int64)), bootID: row["boot_id"],
                        launched: Timestamp(nanosecondsSince1970: row["launched_ns"]))
                }
            }
        } catch {
            throw StoreError(code: .database, message: "reading handler processes: \(Self.describe(error))", path: path)
        }
    }

    private func writeHandlerProcesses(_ doing: String, _ body: @escaping (Database) throws -> Void) throws {
        do {
            try database.write(body)
        } catch {
            throw StoreError(code: .database, message: "\(doing): \(Self.describe(error))", path: path)
        }
    }
}
