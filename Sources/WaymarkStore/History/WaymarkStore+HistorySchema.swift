import GRDB

extension WaymarkStore {
    /// `v2-history`: the daemon's record of what it saw, one record type per table.
    ///
    /// - `fixes`: every accepted fix, with a SpatiaLite POINT (SRID 4326) so GIS tools open the
    ///   history as a layer. `time_ns` is NOT NULL: the daemon only records timed fixes (an
    ///   untimed GPX point cannot be placed in a history), and `recordFix` refuses others.
    /// - `gaps`: instants with no fix (gpsd mode 0/1, a disconnected source).
    /// - `events`: region transitions and other events, with the exact JSON Lines record
    ///   `waymark replay` prints for them.
    ///
    /// Times are nanoseconds since 1970-01-01T00:00:00Z (`Timestamp`), each table indexed on
    /// `(time_ns)`; SQLite appends the rowid to index entries, so a time-range scan comes out
    /// in `(time_ns, id)` order without a sort.
    static func registerHistoryMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-history") { db in
            try db.execute(
                sql: """
                    CREATE TABLE fixes (
                        id INTEGER PRIMARY KEY,
                        time_ns INTEGER NOT NULL,
                        latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
                        longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
                        altitude REAL,
                        horizontal_accuracy REAL CHECK (horizontal_accuracy IS NULL OR horizontal_accuracy >= 0),
                        vertical_accuracy REAL CHECK (vertical_accuracy IS NULL OR vertical_accuracy >= 0),
                        latitude_accuracy REAL CHECK (latitude_accuracy IS NULL OR latitude_accuracy >= 0),
                        longitude_accuracy REAL CHECK (longitude_accuracy IS NULL OR longitude_accuracy >= 0),
                        hdop REAL CHECK (hdop IS NULL OR hdop >= 0),
                        vdop REAL CHECK (vdop IS NULL OR vdop >= 0),
                        pdop REAL CHECK (pdop IS NULL OR pdop >= 0),
                        satellites INTEGER CHECK (satellites IS NULL OR satellites >= 0),
                        mode TEXT CHECK (mode IS NULL OR mode IN ('none', '2d', '3d', 'dgps', 'pps')),
                        speed REAL,
                        course REAL,
                        source TEXT NOT NULL CHECK (source <> ''),
                        CHECK (typeof(time_ns) = 'integer')
                    )
                    """)
            try db.execute(sql: "CREATE INDEX fixes_by_time ON fixes(time_ns)")
            // POINT, XY, NOT NULL; SpatiaLite's own triggers enforce the type and SRID.
            try expectOne(
                db, "SELECT AddGeometryColumn('fixes', 'geometry', 4326, 'POINT', 'XY', 1)",
                what: "AddGeometryColumn on fixes")
            try expectOne(db, "SELECT CreateSpatialIndex('fixes', 'geometry')", what: "CreateSpatialIndex on fixes")
            // The point is the row's own coordinate, never a different one.
            for event in ["INSERT", "UPDATE"] {
                try db.execute(
                    sql: """
                        CREATE TRIGGER fixes_geometry_matches_coordinate_\(event.lowercased())
                        BEFORE \(event) ON fixes
                        WHEN ST_X(NEW.geometry) IS NOT NEW.longitude OR ST_Y(NEW.geometry) IS NOT NEW.latitude
                        BEGIN
                            SELECT RAISE(ABORT, 'fixes.geometry must be the POINT(longitude latitude) of the row');
                        END
                        """)
            }

            try db.execute(
                sql: """
                    CREATE TABLE gaps (
                        id INTEGER PRIMARY KEY,
                        time_ns INTEGER NOT NULL CHECK (typeof(time_ns) = 'integer'),
                        reason TEXT NOT NULL CHECK (reason <> ''),
                        source TEXT NOT NULL CHECK (source <> '')
                    )
                    """)
            try db.execute(sql: "CREATE INDEX gaps_by_time ON gaps(time_ns)")

            try db.execute(
                sql: """
                    CREATE TABLE events (
                        id INTEGER PRIMARY KEY,
                        time_ns INTEGER NOT NULL CHECK (typeof(time_ns) = 'integer'),
                        kind TEXT NOT NULL CHECK (kind <> ''),
                        region TEXT,
                        transition TEXT,
                        latitude REAL CHECK (latitude IS NULL OR latitude BETWEEN -90 AND 90),
                        longitude REAL CHECK (longitude IS NULL OR longitude BETWEEN -180 AND 180),
                        record TEXT NOT NULL CHECK (
                            json_valid(record) AND json_type(record) = 'object' AND instr(record, char(10)) = 0),
                        CHECK ((latitude IS NULL) = (longitude IS NULL))
                    )
                    """)
            try db.execute(sql: "CREATE INDEX events_by_time ON events(time_ns)")
        }
    }
}
