import GRDB
import Logging

extension WaymarkStore {
    /// The schema's history. Append-only: a migration that has landed is never edited; a change
    /// is a new migration after the last one. GRDB records applied ones in `grdb_migrations`.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-regions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE regions (
                        id INTEGER PRIMARY KEY,
                        identifier TEXT NOT NULL UNIQUE,
                        kind TEXT NOT NULL CHECK (kind IN ('circle', 'polygon')),
                        radius REAL CHECK (radius IS NULL OR radius > 0),
                        properties TEXT CHECK (properties IS NULL OR json_valid(properties)),
                        imported_at TEXT NOT NULL,
                        CHECK ((kind = 'circle') = (radius IS NOT NULL))
                    )
                    """)
            // max(radius) bounds the circle search of every reference query: keep it O(log n).
            try db.execute(sql: "CREATE INDEX regions_by_radius ON regions(radius)")
            // SRID 4326, any geometry type, XY, NOT NULL. Circles are their centre POINT,
            // polygon regions a MULTIPOLYGON.
            try expectOne(
                db, "SELECT AddGeometryColumn('regions', 'geometry', 4326, 'GEOMETRY', 'XY', 1)",
                what: "AddGeometryColumn")
            try expectOne(db, "SELECT CreateSpatialIndex('regions', 'geometry')", what: "CreateSpatialIndex")
            for event in ["INSERT", "UPDATE"] {
                try db.execute(
                    sql: """
                        CREATE TRIGGER regions_geometry_matches_kind_\(event.lowercased())
                        BEFORE \(event) ON regions
                        WHEN (NEW.kind = 'circle' AND GeometryType(NEW.geometry) IS NOT 'POINT')
                          OR (NEW.kind = 'polygon' AND GeometryType(NEW.geometry) IS NOT 'MULTIPOLYGON')
                        BEGIN
                            SELECT RAISE(ABORT, 'regions.geometry must be a POINT for a circle and a MULTIPOLYGON for a polygon');
                        END
                        """)
            }
        }
        registerHistoryMigration(in: &migrator)
        registerRegionStateMigration(in: &migrator)
        registerBeaconRegionMigration(in: &migrator)
        registerHandlerMigration(in: &migrator)
        registerEnergyMigration(in: &migrator)
        registerHandlerSessionMigration(in: &migrator)
        registerFixAppendMigration(in: &migrator)
        registerDeviceMigration(in: &migrator)
        registerDeviceHistoryMigration(in: &migrator)
        registerRegionsEstablishedMigration(in: &migrator)
        registerOutputMigration(in: &migrator)
        registerOutputLocationMigration(in: &migrator)
        registerHandlerProcessMigration(in: &migrator)
        registerServiceMarkMigration(in: &migrator)
        registerForceQuitBootMigration(in: &migrator)
        registerImportMigration(in: &migrator)
        registerTimelineServiceMarkMigration(in: &migrator)
        registerTimelineMigration(in: &migrator)
        registerPhoneEnergyMigration(in: &migrator)
        return migrator
    }

    static func expectOne(_ db: Database, _ sql: String, what: String) throws {
        guard try Int.fetchOne(db, sql: sql) == 1 else {
            throw StoreError(code: .migrationFailed, message: "SpatiaLite's \(what) failed")
        }
    }

    /// Creates SpatiaLite's metadata tables on a new database, then applies pending migrations.
    func migrate() throws {
        // Another process setting up the same new file holds the write lock for as long as its
        // schema takes; on a loaded machine that can outlast SQLite's 10 s busy timeout.
        // Waiting longer is right: the lock is released when that process commits.
        let deadline = ContinuousClock.now + Self.migrationPatience
        while true {
            do {
                return try migrateOnce()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && ContinuousClock.now < deadline {
                logger.debug("Another process holds the store's write lock while setting it up; waiting")
            } catch let error as StoreError {
                throw path.map { error.naming($0) } ?? error
            } catch {
                throw StoreError(
                    code: .migrationFailed,
                    message: "cannot set up the store's schema\(path.map { " in \($0)" } ?? ""): \(Self.describe(error))",
                    path: path)
            }
        }
    }

    /// How long an open waits, in all, for other processes setting up the same file.
    static let migrationPatience: Duration = .seconds(120)

    private func migrateOnce() throws {
        // Checked and created in one IMMEDIATE transaction, so two processes opening a new
        // file at once (a daemon and `waymark history`) cannot both initialise it.
        // InitSpatialMetadata(0): no transaction of its own, it runs inside ours. 'WGS84': only
        // the 129 reference systems on WGS84 (4326, which is all Waymark uses, and its UTM zones),
        // not all 6,215 — a new store is 0.3 MB instead of 6.6, and opening a temporary one for
        // a replay costs 12 MB less. Skipped when the file already has the metadata (made by
        // SpatiaLite's tools, or an earlier open).
        try database.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                if try !db.tableExists("spatial_ref_sys") {
                    guard try Int.fetchOne(db, sql: "SELECT InitSpatialMetadata(0, 'WGS84')") == 1 else {
                        throw StoreError(code: .migrationFailed, message: "SpatiaLite's InitSpatialMetadata failed")
                    }
                    logger.info("Initialised SpatiaLite metadata")
                }
                return .commit
            }
        }
        try applyPendingMigrations()
    }

    /// Runs the migrations this file lacks. GRDB reads the applied set before each migration's
    /// own transaction, so another process opening the same new file can apply a migration in
    /// between, and ours then fails ("table regions already exists") and rolls back. Each
    /// migration commits with its identifier, so when the applied set has grown since we looked,
    /// the failure was that race: look again and carry on from where the other process got to.
    /// A failure with no progress elsewhere is real and is thrown.
    private func applyPendingMigrations() throws {
        let migrator = Self.migrator
        var applied = try database.read { try migrator.appliedIdentifiers($0) }
        while true {
            do {
                try migrator.migrate(database)
                break
            } catch {
                let now = try database.read { try migrator.appliedIdentifiers($0) }
                guard now.isStrictSuperset(of: applied) else { throw error }
                logger.debug("Another process migrated this store meanwhile; retrying")
                applied = now
            }
        }
        for identifier in migrator.migrations where !applied.contains(identifier) {
            logger.info("Applied migration", metadata: ["migration": "\(identifier)"])
        }
    }

    /// The identifiers of the migrations applied to this database, in the order applied.
    public func appliedMigrations() throws -> [String] {
        do {
            return try database.read { try Self.migrator.appliedMigrations($0) }
        } catch {
            throw storeError(error, doing: "reading the applied migrations")
        }
    }
}
