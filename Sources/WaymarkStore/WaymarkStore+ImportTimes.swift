import GRDB
import WaymarkCore

extension WaymarkStore {
    /// When each region, geographic and beacon, was last imported (`imported_at`): a stable
    /// identity for a region's current version, which OwnTracks' `setWaypoints` sends as the
    /// waypoint's `tst` (docs/devices.md). A value that does not parse maps to the epoch.
    public func regionImportTimes() throws -> [String: Timestamp] {
        do {
            return try database.read { db in
                var times: [String: Timestamp] = [:]
                let rows = try Row.fetchAll(
                    db, sql: "SELECT identifier, imported_at FROM regions UNION ALL SELECT identifier, imported_at FROM beacon_regions")
                for row in rows {
                    let text: String = row["imported_at"]
                    times[row["identifier"]] = Timestamp(rfc3339: text) ?? Timestamp(nanosecondsSince1970: 0)
                }
                return times
            }
        } catch {
            throw StoreError(code: .database, message: "reading region import times: \(Self.describe(error))", path: path)
        }
    }
}
