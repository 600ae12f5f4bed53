import GRDB

extension WaymarkStore {
    /// `v17-imports`: history brought in from files (`waymark import`, `POST /v1/imports`;
    /// docs/import.md).
    ///
    /// - `imports`: one row per import, its progress committed with every chunk, so an
    ///   interrupted import (SIGKILL, power cut) is found and resumed by the same command.
    /// - `import_files`: each input file of an import with its SHA-256: a file already imported
    ///   whole for the device is recognised and not read again.
    /// - `fixes.import_id`, `events.import_id`: the import that added a fix, or computed or read
    ///   an event; NULL for live history.
    /// - `events.quiet`: 1 for an imported event that outputs do not deliver (the default: the
    ///   past is not news); `--deliver` writes 0.
    static func registerImportMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v17-imports") { db in
            try db.execute(
                sql: """
                    CREATE TABLE imports (
                        id INTEGER PRIMARY KEY,
                        device TEXT NOT NULL CHECK (device <> ''),
                        state TEXT NOT NULL CHECK (state IN ('reading', 'evaluating', 'done', 'failed')),
                        started_ns INTEGER NOT NULL,
                        finished_ns INTEGER,
                        sources TEXT NOT NULL CHECK (json_valid(sources)),
                        fingerprint TEXT NOT NULL,
                        deliver INTEGER NOT NULL DEFAULT 0 CHECK (deliver IN (0, 1)),
                        bytes_total INTEGER,
                        bytes_read INTEGER NOT NULL DEFAULT 0,
                        fixes_added INTEGER NOT NULL DEFAULT 0,
                        fixes_present INTEGER NOT NULL DEFAULT 0,
                        reported INTEGER NOT NULL DEFAULT 0,
                        events INTEGER NOT NULL DEFAULT 0,
                        error TEXT
                    );
                    CREATE INDEX imports_by_fingerprint ON imports(device, fingerprint);
                    CREATE TABLE import_files (
                        import_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        digest TEXT NOT NULL,
                        size INTEGER NOT NULL,
                        state TEXT NOT NULL CHECK (state IN ('reading', 'done', 'failed')),
                        fixes_added INTEGER NOT NULL DEFAULT 0,
                        fixes_present INTEGER NOT NULL DEFAULT 0,
                        reported INTEGER NOT NULL DEFAULT 0,
                        error TEXT,
                        PRIMARY KEY (import_id, name)
                    );
                    CREATE INDEX import_files_by_digest ON import_files(digest);
                    ALTER TABLE fixes ADD COLUMN import_id INTEGER;
                    ALTER TABLE events ADD COLUMN import_id INTEGER;
                    ALTER TABLE events ADD COLUMN quiet INTEGER NOT NULL DEFAULT 0 CHECK (quiet IN (0, 1));
                    """)
        }
    }
}
