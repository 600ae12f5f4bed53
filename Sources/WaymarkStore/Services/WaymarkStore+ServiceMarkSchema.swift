import GRDB

extension WaymarkStore {
    /// `v15-service-marks`: what each subscriber's location services must not forget across a
    /// restart (`ServiceMark`, docs/semantics.md §2.5), per device: the significant-change
    /// service's last location and the visit detector's current stay. Written by the store writer in the
    /// transaction of the events that changed them. `subscriber` is `subscription:NAME` or
    /// `handler:NAME`; a handler's rows go when it is removed.
    static func registerServiceMarkMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v15-service-marks") { db in
            try db.execute(
                sql: """
                    CREATE TABLE service_marks (
                        device TEXT NOT NULL,
                        subscriber TEXT NOT NULL CHECK (subscriber <> ''),
                        kind TEXT NOT NULL CHECK (kind IN ('significant-location', 'stay')),
                        time_ns INTEGER NOT NULL CHECK (typeof(time_ns) = 'integer'),
                        latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
                        longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
                        PRIMARY KEY (device, subscriber, kind)
                    ) WITHOUT ROWID
                    """)
        }
    }
}
