import GRDB

extension WaymarkStore {
    /// `v5-handlers`: registered handlers, their durable event queues and their state log.
    ///
    /// - `handlers`: the registration as JSON (the handlers module owns its shape), and the
    ///   force-quit mark.
    /// - `handler_events`: every event for a handler is written here (synchronous=FULL) before
    ///   it is delivered; `id` is its unique, increasing id; `acked_ns` is set when the handler
    ///   acknowledges it. Unacknowledged events are resent, in id order, after any restart.
    /// - `handler_log`: every state change with its time and reason.
    static func registerHandlerMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5-handlers") { db in
            try db.execute(
                sql: """
                    CREATE TABLE handlers (
                        name TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 64),
                        registration TEXT NOT NULL CHECK (json_valid(registration)),
                        force_quit INTEGER NOT NULL DEFAULT 0 CHECK (force_quit IN (0, 1)),
                        created_ns INTEGER NOT NULL
                    );
                    CREATE TABLE handler_events (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        handler TEXT NOT NULL REFERENCES handlers(name) ON DELETE CASCADE,
                        time_ns INTEGER NOT NULL,
                        kind TEXT NOT NULL CHECK (kind <> ''),
                        record TEXT NOT NULL CHECK (json_valid(record)),
                        queued_ns INTEGER NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        acked_ns INTEGER
                    );
                    CREATE INDEX handler_events_unacknowledged ON handler_events(handler, id) WHERE acked_ns IS NULL;
                    CREATE TABLE handler_log (
                        id INTEGER PRIMARY KEY,
                        handler TEXT NOT NULL,
                        time_ns INTEGER NOT NULL,
                        state TEXT NOT NULL,
                        reason TEXT NOT NULL,
                        pid INTEGER
                    );
                    CREATE INDEX handler_log_by_handler ON handler_log(handler, id);
                    """)
        }
    }
}
