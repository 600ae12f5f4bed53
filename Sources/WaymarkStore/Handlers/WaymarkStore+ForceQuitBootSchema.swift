import GRDB

extension WaymarkStore {
    /// `v16-force-quit-boot`: the boot in which a handler was force-quit (the kernel's boot id), so
    /// a restart of the machine clears the mark, as a device restart does on a phone
    /// (docs/semantics.md §1.5). Marks set before this version have none and are taken as the
    /// current boot's at the next daemon start.
    static func registerForceQuitBootMigration(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v16-force-quit-boot") { db in
            try db.execute(sql: "ALTER TABLE handlers ADD COLUMN force_quit_boot TEXT")
        }
    }
}
