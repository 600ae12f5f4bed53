import GRDB

extension WaymarkStore {
    /// `v12-outputs`: the outputs (docs/outputs.md) and their dead letters (`requeued`: to be
    /// tried again, `waymark outputs retry`). An output's queue is
    /// the history's `events` read from its cursor (`delivered_through`, a row id): events are
    /// durable before anything is sent, and an output costs ingest nothing.
    static func registerOutputMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v12-outputs") { db in
            try db.execute(
                sql: """
                    CREATE TABLE outputs (
                        name TEXT PRIMARY KEY NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('webhook', 'mqtt')),
                        format TEXT NOT NULL DEFAULT 'cloudevents' CHECK (format IN ('cloudevents', 'owntracks')),
                        target TEXT NOT NULL,
                        secret TEXT NOT NULL,
                        filter TEXT NOT NULL,
                        keep_seconds INTEGER NOT NULL CHECK (keep_seconds > 0),
                        delivered_through INTEGER NOT NULL,
                        disabled TEXT,
                        created_ns INTEGER NOT NULL
                    )
                    """)
            try db.execute(
                sql: """
                    CREATE TABLE output_dead_letters (
                        output TEXT NOT NULL REFERENCES outputs(name) ON DELETE CASCADE,
                        event_id INTEGER NOT NULL,
                        failed_ns INTEGER NOT NULL,
                        error TEXT NOT NULL,
                        requeued INTEGER NOT NULL DEFAULT 0 CHECK (requeued IN (0, 1)),
                        PRIMARY KEY (output, event_id)
                    )
                    """)
        }
    }
}
