import GRDB

extension WaymarkStore {
    /// `v19-timeline`: a device's completed stays and trips (`waymark timeline`, docs/timeline/history.md).
    ///
    /// - `timeline_segments`: one row per completed stay or trip, in time order per device (row
    ///   ids grow with time: segments are only ever appended after the last one, or the tail is
    ///   dropped and recomputed). A stay's `latitude`/`longitude` are its centre, a trip's its
    ///   start; a stay keeps the row id of its last fix (`last_fix_id`), where the next reading
    ///   resumes. `(device, kind, start_ns)` is unique: recomputing a range cannot add a segment twice.
    /// - `timeline_progress`: per device, the highest fix row id whose effect on the stored segments
    ///   is accounted for; a fix above it older than the last stored stay (an import, a late
    ///   upload) makes the next refresh drop and recompute the segments from that time on.
    static func registerTimelineMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v19-timeline") { db in
            try db.execute(
                sql: """
                    CREATE TABLE timeline_segments (
                        id INTEGER PRIMARY KEY,
                        device TEXT NOT NULL CHECK (device <> ''),
                        kind TEXT NOT NULL CHECK (kind IN ('stay', 'trip')),
                        start_ns INTEGER NOT NULL,
                        end_ns INTEGER NOT NULL CHECK (end_ns >= start_ns),
                        latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
                        longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
                        fixes INTEGER NOT NULL CHECK (fixes >= 0),
                        uncertainty REAL CHECK (uncertainty IS NULL OR uncertainty >= 0),
                        last_fix_id INTEGER,
                        to_latitude REAL CHECK (to_latitude IS NULL OR to_latitude BETWEEN -90 AND 90),
                        to_longitude REAL CHECK (to_longitude IS NULL OR to_longitude BETWEEN -180 AND 180),
                        distance REAL CHECK (distance IS NULL OR distance >= 0),
                        moving_time REAL,
                        max_speed REAL,
                        average_speed REAL,
                        elevation_gain REAL,
                        mode TEXT,
                        CHECK ((kind = 'stay') = (uncertainty IS NOT NULL AND last_fix_id IS NOT NULL)),
                        CHECK ((kind = 'trip') = (to_latitude IS NOT NULL AND to_longitude IS NOT NULL AND distance IS NOT NULL
                            AND moving_time IS NOT NULL AND max_speed IS NOT NULL AND average_speed IS NOT NULL AND mode IS NOT NULL)),
                        UNIQUE (device, kind, start_ns)
                    );
                    CREATE INDEX timeline_segments_by_end ON timeline_segments(device, end_ns);
                    CREATE TABLE timeline_progress (
                        device TEXT PRIMARY KEY CHECK (device <> ''),
                        seen_fix_id INTEGER NOT NULL
                    );
                    """)
        }
    }
}
