import GRDB

extension WaymarkStore {
    /// `v6-energy`: the energy ledger (docs/semantics.md §4) in hourly buckets, one row per hour, radio,
    /// handler, profile and state. Rows are added to, never replaced (`addEnergy`), so the daemon
    /// can flush a bucket while its hour is still running and again later.
    ///
    /// The hour is a whole hour in nanoseconds since 1970 (a CHECK), the radio one of the four
    /// the ledger knows; a handler's share of one state in one hour cannot exceed the hour
    /// (3600 s, with a millisecond's slack for rounding of shares).
    static func registerEnergyMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6-energy") { db in
            try db.execute(
                sql: """
                    CREATE TABLE energy (
                        hour_ns INTEGER NOT NULL CHECK (typeof(hour_ns) = 'integer' AND hour_ns % 3600000000000 = 0),
                        radio TEXT NOT NULL CHECK (radio IN ('gnss', 'bluetooth', 'wifi', 'cellular')),
                        handler TEXT NOT NULL CHECK (handler <> ''),
                        profile TEXT NOT NULL CHECK (profile <> ''),
                        state TEXT NOT NULL CHECK (state <> ''),
                        seconds REAL NOT NULL CHECK (seconds >= 0 AND seconds <= 3600.001),
                        joules REAL NOT NULL CHECK (joules >= 0),
                        PRIMARY KEY (hour_ns, radio, handler, profile, state)
                    ) WITHOUT ROWID
                    """)
        }
    }
}
