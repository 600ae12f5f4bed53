import GRDB

extension WaymarkStore {
    /// `v10-device-history`: every history row, queued handler event and region state belongs to
    /// a device (docs/devices.md). Rows written before are the local receiver's.
    ///
    /// - `fixes`, `gaps`, `events`, `handler_events` gain `device` (adding a column with a
    ///   default rewrites nothing in SQLite). No (device, time) index: a device's history is read
    ///   through the time index with the device as a filter. Measured with `waymark bench
    ///   ingest` (20 s, same machine, same hour): with such an index on the three tables the
    ///   writer took 12.1 µs a fix instead of 8.8 and ingest fell from about 110,000 fixes/s to
    ///   80,000 (BENCHMARKS.md). A deployment whose per-device reads matter more can add one
    ///   (`CREATE INDEX fixes_by_device_time ON fixes(device, time_ns)`).
    /// - `region_state` and `beacon_region_state` are keyed by (device, identifier): each device
    ///   is inside or outside a region on its own. SQLite cannot change a primary key in place, so
    ///   both are rebuilt (new table, copy, drop, rename), their reset triggers dropped first (a
    ///   rename refuses a schema whose triggers name a missing table) and made again after.
    static func registerDeviceHistoryMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10-device-history") { db in
            for table in ["fixes", "gaps", "events", "handler_events"] {
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN device TEXT NOT NULL DEFAULT 'local' CHECK (device <> '')")
            }
            try db.execute(
                sql: """
                    DROP TRIGGER region_state_reset_on_new_geometry;
                    CREATE TABLE region_state_v10 (
                        device TEXT NOT NULL CHECK (device <> ''),
                        identifier TEXT NOT NULL REFERENCES regions(identifier) ON DELETE CASCADE ON UPDATE CASCADE,
                        inside INTEGER NOT NULL CHECK (inside IN (0, 1)),
                        since_ns INTEGER CHECK (since_ns IS NULL OR typeof(since_ns) = 'integer'),
                        dwelled INTEGER NOT NULL DEFAULT 0 CHECK (dwelled IN (0, 1)),
                        updated_ns INTEGER NOT NULL,
                        PRIMARY KEY (device, identifier)
                    );
                    INSERT INTO region_state_v10 (device, identifier, inside, since_ns, dwelled, updated_ns)
                        SELECT 'local', identifier, inside, since_ns, dwelled, updated_ns FROM region_state;
                    DROP TABLE region_state;
                    ALTER TABLE region_state_v10 RENAME TO region_state;
                    CREATE INDEX region_state_by_identifier ON region_state(identifier);
                    CREATE TRIGGER region_state_reset_on_new_geometry
                    AFTER UPDATE OF geometry, radius, kind ON regions
                    WHEN OLD.geometry IS NOT NEW.geometry OR OLD.radius IS NOT NEW.radius OR OLD.kind IS NOT NEW.kind
                    BEGIN
                        DELETE FROM region_state WHERE identifier = NEW.identifier;
                    END;

                    DROP TRIGGER beacon_region_state_reset_on_new_identity;
                    CREATE TABLE beacon_region_state_v10 (
                        device TEXT NOT NULL CHECK (device <> ''),
                        identifier TEXT NOT NULL REFERENCES beacon_regions(identifier) ON DELETE CASCADE ON UPDATE CASCADE,
                        inside INTEGER NOT NULL CHECK (inside IN (0, 1)),
                        since_ns INTEGER CHECK (since_ns IS NULL OR typeof(since_ns) = 'integer'),
                        last_seen_ns INTEGER CHECK (last_seen_ns IS NULL OR typeof(last_seen_ns) = 'integer'),
                        updated_ns INTEGER NOT NULL,
                        PRIMARY KEY (device, identifier),
                        CHECK (inside = 0 OR last_seen_ns IS NOT NULL)
                    );
                    INSERT INTO beacon_region_state_v10 (device, identifier, inside, since_ns, last_seen_ns, updated_ns)
                        SELECT 'local', identifier, inside, since_ns, last_seen_ns, updated_ns FROM beacon_region_state;
                    DROP TABLE beacon_region_state;
                    ALTER TABLE beacon_region_state_v10 RENAME TO beacon_region_state;
                    CREATE INDEX beacon_region_state_by_identifier ON beacon_region_state(identifier);
                    CREATE TRIGGER beacon_region_state_reset_on_new_identity
                    AFTER UPDATE OF uuid, major, minor ON beacon_regions
                    WHEN OLD.uuid IS NOT NEW.uuid OR OLD.major IS NOT NEW.major OR OLD.minor IS NOT NEW.minor
                    BEGIN
                        DELETE FROM beacon_region_state WHERE identifier = NEW.identifier;
                    END;
                    """)
        }
    }
}
