import Foundation
import GRDB
import Logging
import Testing
import WaymarkCore
import WaymarkStore
import WaymarkTestSupport

/// Issue 48 (low): the database files were 0644, a location history readable by every local
/// user. A store's files are 0600 now, new or left by an earlier version.
@Suite struct PrivateFileTests {
    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    private static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func aNewStoreAndItsWALAreReadableByTheirOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("w.sqlite")
        let previous = umask(0o022)  // the usual umask, which left 0644 files before
        defer { umask(previous) }
        let store = try WaymarkStore(path: path, logger: Self.logger)
        _ = try store.addDevice(name: "phone", user: nil, at: Timestamp(secondsSince1970: 0))
        #expect(mode(path) == 0o600)
        #expect(mode(path + "-wal") == 0o600, "the WAL file takes the database's mode")
        #expect(mode(path + "-shm") == 0o600)
    }

    @Test func aStoreLeftOpenToOthersIsNarrowedWhenOpened() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("w.sqlite")
        do {
            let store = try WaymarkStore(path: path, logger: Self.logger)
            _ = try store.addDevice(name: "phone", user: nil, at: Timestamp(secondsSince1970: 0))
        }
        for file in [path, path + "-wal", path + "-shm"] where mode(file) != nil { chmod(file, 0o644) }
        let reopened = try WaymarkStore(path: path, logger: Self.logger)
        #expect(try reopened.device(named: "phone")?.name == "phone", "narrowing lost nothing")
        #expect(mode(path) == 0o600)
        if mode(path + "-wal") != nil { #expect(mode(path + "-wal") == 0o600) }
    }

    /// Closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's
    /// included: preparing a database another connection of this process has open must not
    /// open it (the daemon opens a second store on its own file for `history` and exports; the
    /// first version of `prepare` did, and the web page's test saw "database disk image is
    /// malformed"). Here a connection holds an exclusive lock, `prepare` runs, and another
    /// process must still find the database locked.
    @Test func preparingAnOpenDatabaseKeepsItsConnectionsLocks() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("plain.sqlite")
        let holder = try DatabaseQueue(path: path)
        try await holder.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        chmod(path, 0o644)
        try await holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)")
            PrivateFile.prepare(path)
            #expect(self.mode(path) == 0o600)
            // Another process, waited for here on GRDB's own thread (not the cooperative pool).
            let other = Process()
            other.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            other.arguments = [path, "INSERT INTO t VALUES (2);"]
            other.standardError = FileHandle.nullDevice
            try other.run()
            other.waitUntilExit()
            #expect(other.terminationStatus != 0, "another process wrote while this one held an exclusive lock")
            try db.execute(sql: "COMMIT")
        }
    }
}
