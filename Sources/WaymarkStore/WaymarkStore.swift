import Foundation
import GRDB
import GRDBSQLite
import Logging
import WaymarkCore
import WaymarkRegions

/// The SpatiaLite store: an ordinary SpatiaLite database file (readable by `spatialite`,
/// `ogrinfo`, QGIS) holding the monitored regions in the table `regions`, and the daemon's
/// history in `fixes` (a POINT layer), `gaps` and `events`.
///
/// Every connection loads `mod_spatialite`. Files use WAL with `synchronous=FULL` on the
/// writer: an acknowledged import or event survives a power cut (WAL + NORMAL lost the latest
/// commits in about half of the simulated cuts, docs/platform.md). Fix and gap writes drop to
/// NORMAL for their transaction: they survive the process being killed, not a power cut (see
/// `recordFix`). Readers are separate connections from the one that created the schema, which
/// keeps SpatiaLite's geodesic functions fast.
///
/// Thread-safe: GRDB serialises writes and runs reads concurrently.
public final class WaymarkStore: Sendable {
    /// The database file, or `nil` for a private temporary store.
    public let path: String?
    let database: any DatabaseWriter
    let logger: Logger

    /// Opens the SpatiaLite database at `path`, creating it (and its SpatiaLite metadata) if it
    /// does not exist, and brings its schema up to date with the store's migrations.
    ///
    /// - Throws: `StoreError` `.cannotOpen` (naming the path) when the file cannot be opened or
    ///   created or is not an SQLite database, `.spatialiteUnavailable` when `mod_spatialite`
    ///   cannot be loaded, `.migrationFailed` when the schema cannot be set up.
    public convenience init(path: String, logger: Logger) throws {
        try self.init(path: path, logger: logger, spatialiteModule: "mod_spatialite")
    }

    /// `spatialiteModule` is the name given to `load_extension` (tests pass a missing one).
    init(path: String, logger: Logger, spatialiteModule: String) throws {
        var logger = logger
        logger[metadataKey: "store.path"] = "\(path)"
        self.path = path
        self.logger = logger
        let configuration = Self.configuration(spatialiteModule: spatialiteModule, logger: logger)
        let pool: DatabasePool
        PrivateFile.prepare(path)
        do {
            pool = try Self.openPool(path: path, configuration: configuration)
        } catch let error as StoreError {
            throw error.naming(path)
        } catch {
            throw StoreError(
                code: .cannotOpen,
                message: "cannot open the database \(path): \(Self.describe(error)). "
                    + "Check that the folder exists, is writable, and that the file is a SpatiaLite database.",
                path: path)
        }
        database = pool
        try migrate()
        logger.debug("Opened SpatiaLite store")
    }

    /// Opens the pool, switching a new file to WAL. Processes opening one new file at once (a
    /// daemon starting while a script polls it) can find it locked in a way SQLite's busy
    /// timeout does not wait out: switching to WAL takes an exclusive lock, and SQLite answers
    /// a possible deadlock with SQLITE_BUSY at once. Such an open is tried again, for up to
    /// about ten seconds; any other failure is not.
    private static func openPool(path: String, configuration: Configuration) throws -> DatabasePool {
        var delay = 0.01
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                let pool = try DatabasePool(path: path, configuration: configuration)
                // GRDB's WAL setup chooses synchronous=NORMAL; region imports promise durability.
                try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
                return pool
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                Thread.sleep(forTimeInterval: delay * Double.random(in: 0.5...1.5))
                delay = min(delay * 2, 0.5)
            }
        }
    }

    /// A private temporary store (replays and exports without `--db`): the same schema and
    /// SpatiaLite functions as a file, gone when the value is released.
    ///
    /// SQLite's nameless database: pages live in a small cache (256 KiB here) and spill to a
    /// file SQLite deletes on close, so 10,000 imported regions do not sit in this process's
    /// heap beside their decoded copy (`:memory:` kept every page: 4 MB more peak RSS in
    /// BENCHMARKS.md "Replay memory").
    public static func temporary(logger: Logger) throws -> WaymarkStore {
        try WaymarkStore(temporaryWith: logger)
    }

    private init(temporaryWith logger: Logger) throws {
        self.path = nil
        self.logger = logger
        var configuration = Self.configuration(spatialiteModule: "mod_spatialite", logger: logger)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -256") }
        do {
            database = try DatabaseQueue(path: "", configuration: configuration)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(
                code: .cannotOpen, message: "cannot open a temporary database: \(Self.describe(error))")
        }
        try migrate()
    }

    /// Connection set-up: load SpatiaLite into every connection GRDB opens.
    static func configuration(spatialiteModule: String, logger: Logger) -> Configuration {
        var configuration = Configuration()
        configuration.label = "WaymarkStore"
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try loadSpatiaLite(spatialiteModule, into: db)
        }
        return configuration
    }

    private static func loadSpatiaLite(_ module: String, into db: Database) throws {
        guard let connection = db.sqliteConnection else {
            throw StoreError(code: .spatialiteUnavailable, message: "the SQLite connection is closed")
        }
        guard sqlite3_enable_load_extension(connection, 1) == SQLITE_OK else {
            throw StoreError(
                code: .spatialiteUnavailable,
                message: "this SQLite library does not allow loading extensions, so SpatiaLite cannot be loaded")
        }
        // Allow loading only for this statement: SQL from elsewhere must not load libraries.
        defer { sqlite3_enable_load_extension(connection, 0) }
        do {
            try db.execute(sql: "SELECT load_extension(?)", arguments: [module])
        } catch {
            throw StoreError(
                code: .spatialiteUnavailable,
                message: "cannot load the SpatiaLite extension '\(module)' (\(describe(error))). "
                    + "Install it with: apt-get install libsqlite3-mod-spatialite")
        }
    }

    /// SQLite's own words for a GRDB error, without GRDB's SQL dump.
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }

    /// Wraps an unexpected SQLite failure; store errors pass through unchanged.
    func storeError(_ error: any Error, doing action: String) -> StoreError {
        if let error = error as? StoreError { return path.map { error.naming($0) } ?? error }
        return StoreError(
            code: .database, message: "\(action) failed: \(Self.describe(error))", path: path)
    }
}

extension StoreError {
    /// The same error, naming the database file if it does not already.
    func naming(_ path: String) -> StoreError {
        var copy = self
        if copy.path == nil {
            copy.path = path
            copy.message = "\(path): \(message)"
        }
        return copy
    }
}
