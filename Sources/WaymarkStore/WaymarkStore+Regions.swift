import GRDB
import Logging
import WaymarkRegions

extension WaymarkStore {
    /// Every stored region, in identifier order (SQLite's binary collation: Unicode code point order).
    public func regions() throws -> [Region] {
        do {
            return try database.read { db in
                try RegionRecord.fetchAll(db, sql: "SELECT \(RegionRecord.columns) FROM regions ORDER BY identifier")
                    .map { try $0.region() }
            }
        } catch {
            throw storeError(error, doing: "loading the regions")
        }
    }

    /// The region stored under `identifier`, or `nil`.
    public func region(identifier: String) throws -> Region? {
        do {
            return try database.read { db in
                try RegionRecord.fetchOne(
                    db, sql: "SELECT \(RegionRecord.columns) FROM regions WHERE identifier = ?", arguments: [identifier]
                )?.region()
            }
        } catch {
            throw storeError(error, doing: "loading region '\(identifier)'")
        }
    }

    /// Removes the region stored under `identifier`; returns whether there was one.
    @discardableResult
    public func removeRegion(identifier: String) throws -> Bool {
        do {
            let removed = try database.write { db in
                try db.execute(sql: "DELETE FROM regions WHERE identifier = ?", arguments: [identifier])
                return db.changesCount > 0
            }
            if removed { logger.info("Removed region", metadata: ["region.id": "\(identifier)"]) }
            return removed
        } catch {
            throw storeError(error, doing: "removing region '\(identifier)'")
        }
    }

    /// The number of stored regions.
    public func regionCount() throws -> Int {
        do {
            return try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM regions") ?? 0 }
        } catch {
            throw storeError(error, doing: "counting the regions")
        }
    }
}
