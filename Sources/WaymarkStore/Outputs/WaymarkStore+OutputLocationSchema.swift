import GRDB

extension WaymarkStore {
    /// `v13-output-locations`: outputs that publish positions (OwnTracks' `location`, Home
    /// Assistant's device trackers) read the history's `fixes` from a second cursor,
    /// `locations_through`, thinned to one per `location_seconds` a device (docs/outputs.md); and
    /// `format` may be `homeassistant`. SQLite cannot change a CHECK in place: the table is
    /// rebuilt (new, copy, drop, rename), outside foreign-key enforcement as every migration
    /// runs, so the dead letters that reference it stay.
    static func registerOutputLocationMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v13-output-locations") { db in
            try db.execute(
                sql: """
                    CREATE TABLE outputs_v13 (
                        name TEXT PRIMARY KEY NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('webhook', 'mqtt')),
                        format TEXT NOT NULL DEFAULT 'cloudevents' CHECK (format IN ('cloudevents', 'owntracks', 'homeassistant')),
                        target TEXT NOT NULL,
                        secret TEXT NOT NULL,
                        filter TEXT NOT NULL,
                        keep_seconds INTEGER NOT NULL CHECK (keep_seconds > 0),
                        delivered_through INTEGER NOT NULL,
                        disabled TEXT,
                        created_ns INTEGER NOT NULL,
                        location_seconds INTEGER NOT NULL DEFAULT 10 CHECK (location_seconds >= 0),
                        locations_through INTEGER NOT NULL DEFAULT 0
                    );
                    INSERT INTO outputs_v13 (name, kind, format, target, secret, filter, keep_seconds, delivered_through, disabled, created_ns,
                                             locations_through)
                        SELECT name, kind, format, target, secret, filter, keep_seconds, delivered_through, disabled, created_ns,
                               (SELECT COALESCE(MAX(id), 0) FROM fixes)
                        FROM outputs;
                    DROP TABLE outputs;
                    ALTER TABLE outputs_v13 RENAME TO outputs;
                    """)
        }
    }
}
