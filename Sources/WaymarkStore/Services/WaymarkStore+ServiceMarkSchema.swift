import GRDB

extension WaymarkStore {
    /// `v15-service-marks`: what each subscriber's location services must not forget across a
    /// restart (`ServiceMark`, docs/semantics.md §2.5), per device: the significant-change
    /// service's last location and the visit detector's current stay. Written by the store writer in the
    /// transaction of the events that changed them. `subscriber` is `subscription:NAME` or
    /// `handler:NAME`; a handler's rows go when it is removed.
    static func registerServiceMarkMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v15-service-marks") { db in
            try db.execute(sql: serviceMarksTable("service_marks", kinds: ["significant-location", "stay"]))
        }
    }
}

extension WaymarkStore {
    /// `v18-timeline-service-marks`: the timeline service's mark (`ServiceMark.timeline`, where its
    /// rebuilding starts) joins the kinds `service_marks` accepts. SQLite cannot change a CHECK,
    /// so the table is made again with its rows.
    static func registerTimelineServiceMarkMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v18-timeline-service-marks") { db in
            try db.execute(sql: serviceMarksTable("service_marks_new", kinds: ["significant-location", "stay", "timeline"]))
            try db.execute(
                sql: """
                    INSERT INTO service_marks_new SELECT device, subscriber, kind, time_ns, latitude, longitude FROM service_marks;
                    DROP TABLE service_marks;
                    ALTER TABLE service_marks_new RENAME TO service_marks;
                    """)
        }
    }

    /// The marks' table as `name`, taking marks of `kinds`: one row per device, subscriber and kind.
    private static func serviceMarksTable(_ name: String, kinds: [String]) -> String {
        """
        CREATE TABLE \(name) (
            device TEXT NOT NULL,
            subscriber TEXT NOT NULL CHECK (subscriber <> ''),
            kind TEXT NOT NULL CHECK (kind IN (\(kinds.map { "'\($0)'" }.joined(separator: ", ")))),
            time_ns INTEGER NOT NULL CHECK (typeof(time_ns) = 'integer'),
            latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
            longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
            PRIMARY KEY (device, subscriber, kind)
        ) WITHOUT ROWID
        """
    }
}
