import GRDB

extension WaymarkStore {
    /// `v3-region-state`: each region's confirmed state, so a restarted daemon resumes where it
    /// stopped instead of starting unknown (and missing the exit that happened meanwhile).
    ///
    /// A row goes with its region (`ON DELETE CASCADE`) and is dropped when the region's
    /// geometry changes on re-import (a trigger): the old state says nothing about the new shape.
    static func registerRegionStateMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-region-state") { db in
            try db.execute(
                sql: """
                    CREATE TABLE region_state (
                        identifier TEXT PRIMARY KEY REFERENCES regions(identifier) ON DELETE CASCADE ON UPDATE CASCADE,
                        inside INTEGER NOT NULL CHECK (inside IN (0, 1)),
                        since_ns INTEGER CHECK (since_ns IS NULL OR typeof(since_ns) = 'integer'),
                        dwelled INTEGER NOT NULL DEFAULT 0 CHECK (dwelled IN (0, 1)),
                        updated_ns INTEGER NOT NULL
                    )
                    """)
            try db.execute(
                sql: """
                    CREATE TRIGGER region_state_reset_on_new_geometry
                    AFTER UPDATE OF geometry, radius, kind ON regions
                    WHEN OLD.geometry IS NOT NEW.geometry OR OLD.radius IS NOT NEW.radius OR OLD.kind IS NOT NEW.kind
                    BEGIN
                        DELETE FROM region_state WHERE identifier = NEW.identifier;
                    END
                    """)
        }
    }

    /// `v11-regions-established`: per device, when its regions were last established together
    /// (`SavedRegionStates.established`) and when that was written (the wall clock, compared
    /// with regions' `imported_at`: regions imported later were not covered).
    static func registerRegionsEstablishedMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v11-regions-established") { db in
            try db.execute(
                sql: """
                    CREATE TABLE regions_established (
                        device TEXT PRIMARY KEY NOT NULL,
                        since_ns INTEGER CHECK (since_ns IS NULL OR typeof(since_ns) = 'integer'),
                        written_ns INTEGER NOT NULL
                    )
                    """)
        }
    }
}
