import GRDB
import Logging
import WaymarkCore
import WaymarkRegions

extension WaymarkStore {
    /// Every stored region, geographic and beacon, in identifier order (SQLite's binary collation:
    /// Unicode code point order).
    public func regions() throws -> [Region] {
        do {
            return try database.read { db in
                // Row by row: the records (geometry blobs) are not all held beside the regions.
                var geographic: [Region] = []
                let rows = try RegionRecord.fetchCursor(db, sql: "SELECT \(RegionRecord.columns) FROM regions ORDER BY identifier")
                while let record = try rows.next() { geographic.append(try record.region()) }
                let beacons = try BeaconRegionRecord.fetchAll(
                    db, sql: "SELECT \(BeaconRegionRecord.columns) FROM beacon_regions ORDER BY identifier"
                ).map { try $0.region() }
                return Self.merged(geographic, beacons)
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
                    ?? BeaconRegionRecord.fetchOne(
                        db, sql: "SELECT \(BeaconRegionRecord.columns) FROM beacon_regions WHERE identifier = ?",
                        arguments: [identifier]
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
                let geographic = db.changesCount
                try db.execute(sql: "DELETE FROM beacon_regions WHERE identifier = ?", arguments: [identifier])
                return geographic + db.changesCount > 0
            }
            if removed { logger.info("Removed region", metadata: ["region.id": "\(identifier)"]) }
            return removed
        } catch {
            throw storeError(error, doing: "removing region '\(identifier)'")
        }
    }

    /// The number of stored regions, geographic and beacon.
    public func regionCount() throws -> Int {
        do {
            return try database.read {
                try Int.fetchOne($0, sql: "SELECT (SELECT count(*) FROM regions) + (SELECT count(*) FROM beacon_regions)") ?? 0
            }
        } catch {
            throw storeError(error, doing: "counting the regions")
        }
    }

    /// Two identifier-ordered lists as one, in SQLite's binary order (UTF-8 bytes).
    private static func merged(_ a: [Region], _ b: [Region]) -> [Region] {
        a.orderedMerge(with: b) { $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8) }
    }
}
