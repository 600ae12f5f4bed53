import Foundation
import GRDB
import Logging
import WaymarkCore
import WaymarkRegions

extension WaymarkStore {
    /// Imports `regions`, geographic and beacon, in one transaction.
    ///
    /// Every region is validated first: identifiers are non-empty; coordinates are finite and
    /// within WGS84 ranges; circles have a finite radius > 0 m; rings are closed with at least
    /// four positions; `propertiesJSON` is valid JSON; and every polygon geometry (the
    /// MULTIPOLYGON as stored) passes SpatiaLite's `ST_IsValid`, the reason for a failure being
    /// `ST_IsValidReason`'s (e.g. `Self-intersection[0.5 0.5]`).
    ///
    /// - Parameters:
    ///   - replace: overwrite a region whose identifier is already stored (an upsert);
    ///     when false, such an identifier fails the whole import.
    ///   - skipInvalid: import the valid regions and list the invalid ones in the report;
    ///     when false, any invalid region fails the whole import and nothing is written.
    ///   - importedAt: the time recorded in `imported_at` (default: now).
    /// - Throws: `StoreError` `.invalidRegions` listing every rejected region,
    ///   `.duplicateIdentifier` naming the identifiers, or `.database`.
    @discardableResult
    public func importRegions(
        _ regions: [Region], replace: Bool, skipInvalid: Bool = false, importedAt: Timestamp? = nil
    ) throws -> ImportReport {
        let importedAt = importedAt ?? Timestamp(secondsSince1970: Date().timeIntervalSince1970)
        let report: ImportReport
        do {
            report = try database.write { db in
                try importRegions(regions, replace: replace, skipInvalid: skipInvalid, importedAt: importedAt, db)
            }
        } catch let error as StoreError {
            logger.warning(
                "Region import rolled back",
                metadata: ["error.code": "\(error.code)", "regions.rejected": "\(error.rejected.count)"])
            throw error
        } catch {
            throw storeError(error, doing: "importing \(regions.count) regions")
        }
        for rejected in report.rejected {
            logger.warning(
                "Skipped invalid region", metadata: ["region.id": "\(rejected.identifier)", "reason": "\(rejected.reason)"])
        }
        logger.info(
            "Imported regions",
            metadata: [
                "regions.inserted": "\(report.inserted.count)", "regions.replaced": "\(report.replaced.count)",
                "regions.rejected": "\(report.rejected.count)",
            ])
        return report
    }

    private func importRegions(
        _ regions: [Region], replace: Bool, skipInvalid: Bool, importedAt: Timestamp, _ db: Database
    ) throws -> ImportReport {
        // Identifiers repeated within the import are ambiguous whatever `replace` says.
        var seen = Set<String>()
        var repeated: [String] = []
        for region in regions where !seen.insert(region.identifier).inserted && !repeated.contains(region.identifier) {
            repeated.append(region.identifier)
        }
        guard repeated.isEmpty else {
            throw StoreError(
                code: .duplicateIdentifier,
                message: "the import contains these identifiers more than once: \(repeated.joined(separator: ", "))",
                path: path, identifiers: repeated)
        }

        var report = ImportReport()
        for region in regions {
            if let reason = try Self.invalidityReason(of: region, db) {
                report.rejected.append(RejectedRegion(identifier: region.identifier, reason: reason))
            }
        }
        // Not a second array of every region unless some are left out (10,000 regions: 1.5 MB).
        let rejected = Set(report.rejected.map(\.identifier))
        let accepted = rejected.isEmpty ? regions : regions.filter { !rejected.contains($0.identifier) }
        if !report.rejected.isEmpty && !skipInvalid {
            let list = report.rejected.map(\.description).joined(separator: "; ")
            throw StoreError(
                code: .invalidRegions,
                message: "\(report.rejected.count) of \(regions.count) regions are invalid, nothing was imported: \(list)",
                path: path, rejected: report.rejected)
        }

        // Geographic and beacon regions share one identifier namespace (two tables).
        var existing: [String: (table: String, id: Int64)] = [:]
        for region in accepted {
            for table in ["regions", "beacon_regions"] {
                if let id = try Int64.fetchOne(
                    db, sql: "SELECT id FROM \(table) WHERE identifier = ?", arguments: [region.identifier])
                {
                    existing[region.identifier] = (table, id)
                }
            }
        }
        if !replace && !existing.isEmpty {
            let names = accepted.map(\.identifier).filter { existing[$0] != nil }
            throw StoreError(
                code: .duplicateIdentifier,
                message: "already in the store (import with replace to overwrite): \(names.joined(separator: ", "))",
                path: path, identifiers: names)
        }

        let importedAtText = importedAt.rfc3339
        for region in accepted {
            let table = region.isGeographic ? "regions" : "beacon_regions"
            var current = existing[region.identifier]
            if let old = current, old.table != table {
                // A geographic region replaced by a beacon region or the reverse: its state goes with it.
                try db.execute(sql: "DELETE FROM \(old.table) WHERE id = ?", arguments: [old.id])
                current = nil
            }
            if let beacon = region.beacon {
                try store(beacon, of: region, replacing: current?.id, importedAt: importedAtText, db)
            } else {
                try store(geographic: region, replacing: current?.id, importedAt: importedAtText, db)
            }
            if existing[region.identifier] != nil {
                report.replaced.append(region.identifier)
            } else {
                report.inserted.append(region.identifier)
            }
        }
        return report
    }

    private func store(geographic region: Region, replacing id: Int64?, importedAt: String, _ db: Database) throws {
        let (kind, radius) = Self.kindAndRadius(of: region.shape)
        let wkb = Data(Self.wkb(for: region.shape))
        if let id {
            try db.execute(
                sql: """
                    UPDATE regions SET kind = ?, radius = ?, properties = ?, imported_at = ?,
                        geometry = GeomFromWKB(?, 4326)
                    WHERE id = ?
                    """,
                arguments: [kind, radius, region.propertiesJSON, importedAt, wkb, id])
        } else {
            try db.execute(
                sql: """
                    INSERT INTO regions (identifier, kind, radius, properties, imported_at, geometry)
                    VALUES (?, ?, ?, ?, ?, GeomFromWKB(?, 4326))
                    """,
                arguments: [region.identifier, kind, radius, region.propertiesJSON, importedAt, wkb])
        }
    }

    private func store(
        _ beacon: BeaconIdentity, of region: Region, replacing id: Int64?, importedAt: String, _ db: Database
    ) throws {
        let values: [(any DatabaseValueConvertible)?] = [
            beacon.uuid.description, beacon.major.map { Int($0) }, beacon.minor.map { Int($0) }, region.propertiesJSON,
            importedAt,
        ]
        if let id {
            try db.execute(
                sql: "UPDATE beacon_regions SET uuid = ?, major = ?, minor = ?, properties = ?, imported_at = ? WHERE id = ?",
                arguments: StatementArguments(values + [id]))
        } else {
            try db.execute(
                sql: """
                    INSERT INTO beacon_regions (uuid, major, minor, properties, imported_at, identifier)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: StatementArguments(values + [region.identifier]))
        }
    }

    /// The `regions` row's kind and radius; beacon regions are not stored there.
    static func kindAndRadius(of shape: RegionShape) -> (kind: String, radius: Double?) {
        switch shape {
        case .circle(_, let radius): ("circle", radius)
        case .polygons: ("polygon", nil)
        case .beacon: ("beacon", nil)
        }
    }

    /// The geometry as WKB; empty for a beacon region, which has none.
    static func wkb(for shape: RegionShape) -> [UInt8] {
        switch shape {
        case .circle(let center, _): WKB.encode(point: center)
        case .polygons(let polygons): WKB.encode(multiPolygon: polygons)
        case .beacon: []
        }
    }

    /// Why `region` cannot be stored, or `nil` when it can.
    private static func invalidityReason(of region: Region, _ db: Database) throws -> String? {
        if region.identifier.isEmpty { return "the identifier is empty" }
        if let json = region.propertiesJSON,
            try Bool.fetchOne(db, sql: "SELECT json_valid(?)", arguments: [json]) != true
        {
            return "properties are not valid JSON"
        }
        switch region.shape {
        case .circle(let center, let radius):
            if !center.isValid { return "centre \(center.latitude), \(center.longitude) is outside WGS84 ranges" }
            if !(radius.isFinite && radius > 0) { return "radius \(radius) m is not a finite number > 0" }
            return nil
        case .beacon:
            // UUID, major and minor are valid by construction; the schema checks them again.
            return nil
        case .polygons(let polygons):
            if polygons.isEmpty { return "no polygons" }
            for (index, polygon) in polygons.enumerated() {
                for ring in [polygon.exterior] + polygon.holes {
                    if let reason = ringProblem(ring) { return "polygon \(index + 1): \(reason)" }
                }
            }
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT ST_IsValid(g) AS valid,
                           CASE WHEN g IS NULL THEN NULL ELSE ST_IsValidReason(g) END AS reason
                    FROM (SELECT GeomFromWKB(?, 4326) AS g)
                    """,
                arguments: [Data(wkb(for: region.shape))])
            let valid: Int? = row?["valid"]
            if valid == 1 { return nil }
            let reason: String? = row?["reason"]
            return reason ?? "SpatiaLite cannot read the geometry"
        }
    }

    private static func ringProblem(_ ring: [Coordinate]) -> String? {
        if ring.count < 4 { return "a ring has \(ring.count) positions, fewer than 4" }
        if ring.first != ring.last { return "a ring is not closed (first position differs from last)" }
        if let bad = ring.first(where: { !$0.isValid }) {
            return "position \(bad.latitude), \(bad.longitude) is outside WGS84 ranges"
        }
        return nil
    }
}
