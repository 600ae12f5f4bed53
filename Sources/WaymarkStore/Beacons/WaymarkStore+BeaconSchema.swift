import GRDB

extension WaymarkStore {
    /// `v4-beacon-regions`: beacon regions (docs/semantics.md §3) beside the geographic ones, and their
    /// state.
    ///
    /// - `beacon_regions`: one row per region, the iBeacon UUID in upper-case 8-4-4-4-12 form,
    ///   major and minor NULL for "any". Options live in `properties`, as for `regions`.
    /// - `beacon_region_state`: inside or outside since when, and the last matching sighting, so
    ///   a restarted daemon reports the exit that fell due while it was down. It goes with its
    ///   region (`ON DELETE CASCADE`) and is dropped when the region's UUID, major or minor change.
    /// - One identifier namespace: triggers refuse an identifier the other table already has, so
    ///   `waymark regions remove ID` and `/v1/regions/{id}` always mean one region.
    static func registerBeaconRegionMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v4-beacon-regions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE beacon_regions (
                        id INTEGER PRIMARY KEY,
                        identifier TEXT NOT NULL UNIQUE CHECK (identifier <> ''),
                        uuid TEXT NOT NULL CHECK (
                            length(uuid) = 36 AND uuid NOT GLOB '*[^0-9A-F-]*'
                            AND substr(uuid, 9, 1) = '-' AND substr(uuid, 14, 1) = '-'
                            AND substr(uuid, 19, 1) = '-' AND substr(uuid, 24, 1) = '-'),
                        major INTEGER CHECK (major IS NULL OR (typeof(major) = 'integer' AND major BETWEEN 0 AND 65535)),
                        minor INTEGER CHECK (minor IS NULL OR (typeof(minor) = 'integer' AND minor BETWEEN 0 AND 65535)),
                        properties TEXT CHECK (properties IS NULL OR json_valid(properties)),
                        imported_at TEXT NOT NULL
                    )
                    """)
            try db.execute(sql: "CREATE INDEX beacon_regions_by_uuid ON beacon_regions(uuid, major, minor)")
            try db.execute(
                sql: """
                    CREATE TABLE beacon_region_state (
                        identifier TEXT PRIMARY KEY REFERENCES beacon_regions(identifier) ON DELETE CASCADE ON UPDATE CASCADE,
                        inside INTEGER NOT NULL CHECK (inside IN (0, 1)),
                        since_ns INTEGER CHECK (since_ns IS NULL OR typeof(since_ns) = 'integer'),
                        last_seen_ns INTEGER CHECK (last_seen_ns IS NULL OR typeof(last_seen_ns) = 'integer'),
                        updated_ns INTEGER NOT NULL,
                        CHECK (inside = 0 OR last_seen_ns IS NOT NULL)
                    )
                    """)
            try db.execute(
                sql: """
                    CREATE TRIGGER beacon_region_state_reset_on_new_identity
                    AFTER UPDATE OF uuid, major, minor ON beacon_regions
                    WHEN OLD.uuid IS NOT NEW.uuid OR OLD.major IS NOT NEW.major OR OLD.minor IS NOT NEW.minor
                    BEGIN
                        DELETE FROM beacon_region_state WHERE identifier = NEW.identifier;
                    END
                    """)
            for (table, other) in [("beacon_regions", "regions"), ("regions", "beacon_regions")] {
                for event in ["INSERT", "UPDATE OF identifier"] {
                    try db.execute(
                        sql: """
                            CREATE TRIGGER \(table)_identifier_not_in_\(other)_\(event.hasPrefix("INSERT") ? "insert" : "update")
                            BEFORE \(event) ON \(table)
                            WHEN EXISTS (SELECT 1 FROM \(other) WHERE identifier = NEW.identifier)
                            BEGIN
                                SELECT RAISE(ABORT, 'a region with this identifier is already stored in \(other)');
                            END
                            """)
                }
            }
        }
    }
}
