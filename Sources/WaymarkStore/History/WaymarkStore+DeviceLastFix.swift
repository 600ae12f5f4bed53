import GRDB
import WaymarkCore

extension WaymarkStore {
    /// The latest fix of `device` by time (the latest recorded among equal times), or `nil`
    /// when it has none: `GET /v1/fixes/last?device=NAME` after a restart.
    public func lastFix(device: String) throws -> StoredFix? {
        do {
            return try database.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT \(Self.fixColumns) FROM fixes WHERE device = ? ORDER BY time_ns DESC, id DESC LIMIT 1",
                    arguments: [device]
                ).map(Self.storedFix)
            }
        } catch {
            throw storeError(error, doing: "reading device \(device)'s last fix")
        }
    }
}
