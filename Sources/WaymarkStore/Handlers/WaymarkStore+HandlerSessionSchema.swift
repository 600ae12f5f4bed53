import GRDB

extension WaymarkStore {
    /// `v7-handler-sessions`: how each handler's recent background periods went (quick, slow,
    /// misreported; seconds to finish; what it said of its work), so the time a handler gets
    /// (docs/semantics.md §1, "quick and honest handlers are favoured") survives daemon restarts.
    /// Only the newest `handlerSessionsKept` per handler are kept.
    static func registerHandlerSessionMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v7-handler-sessions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE handler_sessions (
                        id INTEGER PRIMARY KEY,
                        handler TEXT NOT NULL REFERENCES handlers(name) ON DELETE CASCADE,
                        ended_ns INTEGER NOT NULL,
                        outcome TEXT NOT NULL CHECK (outcome IN ('quick', 'slow', 'misreported')),
                        seconds REAL NOT NULL CHECK (seconds >= 0),
                        useful INTEGER CHECK (useful IN (0, 1))
                    );
                    CREATE INDEX handler_sessions_by_handler ON handler_sessions(handler, id);
                    """)
        }
    }
}
