import GRDB

extension WaymarkStore {
    /// `v14-handler-processes`: the handler processes the daemon has running, so a daemon that
    /// restarts after dying without its shutdown (SIGKILL, a crash, the OOM killer) can find the
    /// ones it left — suspended ones would stay stopped forever, running ones would meet a second
    /// copy — and end them before it launches anew (docs/handlers.md). A process is known by its
    /// PID, its start time (clock ticks after boot, /proc/PID/stat) and the boot it belongs to,
    /// so a recycled PID is never mistaken for it. No reference to `handlers`: a handler removed
    /// meanwhile may still have left a process.
    static func registerHandlerProcessMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v14-handler-processes") { db in
            try db.execute(
                sql: """
                    CREATE TABLE handler_processes (
                        handler TEXT NOT NULL,
                        pid INTEGER NOT NULL CHECK (pid > 0),
                        start_ticks INTEGER NOT NULL CHECK (start_ticks >= 0),
                        boot_id TEXT NOT NULL,
                        launched_ns INTEGER NOT NULL,
                        PRIMARY KEY (boot_id, pid)
                    )
                    """)
        }
    }
}
