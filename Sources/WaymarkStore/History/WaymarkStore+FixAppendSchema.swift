import GRDB

extension WaymarkStore {
    /// `v8-fixes-append`: recording a fix costs one row and one time-index entry, so the store
    /// writer keeps up with 100,000 fixes a second (BENCHMARKS.md, "Ingest").
    ///
    /// Measured on the project machine, 100,000 fix inserts in one transaction: SpatiaLite's
    /// per-row machinery on `fixes` took about four fifths of the time — its spatial-index
    /// trigger calls `RTreeAlign`, which prepares an SQL statement for every row, into an R*Tree
    /// whose inserts alone cost ~14 µs a row; `tmi_…` stamps `geometry_columns_time` on every
    /// insert; `ggi_…` looks the column up in `geometry_columns` and calls `GeometryConstraints`.
    /// No Waymark query reads the history by place (it is read by time), so:
    /// - the spatial index of `fixes` is dropped (`DisableSpatialIndex`, the R*Tree with it). The
    ///   column stays registered, so GIS tools still open the history as a POINT layer; for
    ///   spatial queries on a large history, `SELECT CreateSpatialIndex('fixes', 'geometry')`
    ///   adds it back (recording then pays its cost again);
    /// - the last-insert/update/delete stamps and SpatiaLite's type/SRID triggers on `fixes` go;
    /// - Waymark's own trigger keeps the invariant they guarded, cheaper: the geometry is the
    ///   WGS84 POINT(longitude latitude) of the row (ST_X/ST_Y are NULL for anything but a POINT).
    static func registerFixAppendMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8-fixes-append") { db in
            try expectOne(db, "SELECT DisableSpatialIndex('fixes', 'geometry')", what: "DisableSpatialIndex on fixes")
            try db.execute(sql: "DROP TABLE IF EXISTS idx_fixes_geometry")
            for trigger in ["tmi", "tmu", "tmd", "ggi", "ggu"] {
                try db.execute(sql: "DROP TRIGGER IF EXISTS \(trigger)_fixes_geometry")
            }
            for event in ["INSERT", "UPDATE"] {
                let name = "fixes_geometry_matches_coordinate_\(event.lowercased())"
                try db.execute(sql: "DROP TRIGGER IF EXISTS \(name)")
                try db.execute(
                    sql: """
                        CREATE TRIGGER \(name)
                        BEFORE \(event) ON fixes
                        WHEN ST_X(NEW.geometry) IS NOT NEW.longitude OR ST_Y(NEW.geometry) IS NOT NEW.latitude
                            OR ST_SRID(NEW.geometry) IS NOT 4326
                        BEGIN
                            SELECT RAISE(ABORT, 'fixes.geometry must be the WGS84 POINT(longitude latitude) of the row');
                        END
                        """)
            }
        }
    }
}
