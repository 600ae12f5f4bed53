import GRDB

extension WaymarkStore {
    /// `v9-devices`: the devices whose fixes Waymark records (docs/devices.md).
    ///
    /// `secret_hash` is the SHA-256 of the device's secret (the secret itself is never stored);
    /// unique and indexed, so a bearer token finds its device in one lookup. `local`, the gpsd
    /// receiver, is created here and has no secret.
    static func registerDeviceMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9-devices") { db in
            try db.execute(
                sql: """
                    CREATE TABLE devices (
                        name TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 64),
                        user TEXT NOT NULL CHECK (length(user) BETWEEN 1 AND 64),
                        secret_hash BLOB UNIQUE CHECK (secret_hash IS NULL OR length(secret_hash) = 32),
                        secret_hint TEXT,
                        created_ns INTEGER NOT NULL
                    );
                    INSERT INTO devices (name, user, created_ns)
                    VALUES ('local', 'local', CAST(strftime('%s', 'now') AS INTEGER) * 1000000000);
                    """)
        }
    }
}
