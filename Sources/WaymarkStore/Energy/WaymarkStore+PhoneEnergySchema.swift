import GRDB

extension WaymarkStore {
    /// `v20-phone-energy`: each phone's energy estimate (docs/semantics.md §4.4) in hourly rows, one
    /// per device, hour and profile, beside the daemon's own ledger (`energy`). Rows are added to
    /// (`addPhoneEnergy`), so the daemon flushes a running hour and again later. Removing a
    /// device leaves its rows (what it cost stays accounted); pruning drops ended hours.
    static func registerPhoneEnergyMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v20-phone-energy") { db in
            try db.execute(
                sql: """
                    CREATE TABLE phone_energy (
                        device TEXT NOT NULL CHECK (device <> ''),
                        hour_ns INTEGER NOT NULL CHECK (typeof(hour_ns) = 'integer' AND hour_ns % 3600000000000 = 0),
                        profile TEXT NOT NULL CHECK (profile <> ''),
                        gnss_joules REAL NOT NULL CHECK (gnss_joules >= 0),
                        wifi_joules REAL NOT NULL CHECK (wifi_joules >= 0),
                        cellular_joules REAL NOT NULL CHECK (cellular_joules >= 0),
                        move_seconds REAL NOT NULL CHECK (move_seconds >= 0 AND move_seconds <= 3600.001),
                        significant_seconds REAL NOT NULL CHECK (significant_seconds >= 0 AND significant_seconds <= 3600.001),
                        unknown_seconds REAL NOT NULL CHECK (unknown_seconds >= 0 AND unknown_seconds <= 3600.001),
                        reports INTEGER NOT NULL CHECK (reports >= 0),
                        queued_reports INTEGER NOT NULL CHECK (queued_reports >= 0),
                        network_fixes INTEGER NOT NULL CHECK (network_fixes >= 0),
                        PRIMARY KEY (device, hour_ns, profile)
                    ) WITHOUT ROWID
                    """)
        }
    }
}
