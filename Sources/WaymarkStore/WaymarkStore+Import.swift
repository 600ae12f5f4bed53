import Foundation
import GRDB
import Logging
import WaymarkCore
import WaymarkRegions

extension WaymarkStore {
    /// Imports `regions` in one transaction.
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
        var accepted: [(region: Region, wkb: [UInt8])] = []
        for region in regions {
            let wkb = Self.wkb(for: region.shape)
            if let reason = try Self.invalidityReason(of: region, wkb: wkb, db) {
                report.rejected.append(RejectedRegion(identifier: region.identifier, reason: reason))
            } else {
                accepted.append((region, wkb))
            }
        }
        if !report.rejected.isEmpty && !skipInvalid {
            let list = report.rejected.map(\.description).joined(separator: "; ")
            throw StoreError(
                code: .invalidRegions,
                message: "\(report.rejected.count) of \(regions.count) regions are invalid, nothing was imported: \(list)",
                path: path, rejected: report.rejected)
        }

        var existing: [String: Int64] = [:]
        for (region, _) in accepted {
            if let id = try Int64.fetchOne(
                db, sql: "SELECT id FROM regions WHERE identifier = ?", arguments: [region.identifier])
            {
                existing[region.identifier] = id
            }
        }
        if !replace && !existing.isEmpty {
            let names = accepted.map(\.region.identifier).filter { existing[$0] != nil }
            throw StoreError(
                code: .duplicateIdentifier,
                message: "already in the store (import with replace to overwrite): \(names.joined(separator: ", "))",
                path: path, identifiers: names)
        }

        let importedAtText = importedAt.rfc3339
        for (region, wkb) in accepted {
            let (kind, radius) = Self.kindAndRadius(of: region.shape)
            if let id = existing[region.identifier] {
                try db.execute(
                    sql: """
                        UPDATE regions SET kind = ?, radius = ?, properties = ?, imported_at = ?,
                            geometry = GeomFromWKB(?, 4326)
                        WHERE id = ?
                        """,
                    arguments: [kind, radius, region.propertiesJSON, importedAtText, Data(wkb), id])
                report.replaced.append(region.identifier)
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO regions (identifier, kind, radius, properties, imported_at, geometry)
                        VALUES (?, ?, ?, ?, ?, GeomFromWKB(?, 4326))
                        """,
                    arguments: [region.identifier, kind, radius, region.propertiesJSON, importedAtText, Data(wkb)])
                report.inserted.append(region.identifier)
            }
        }
        return report
    }

    static func kindAndRadius(of shape: RegionShape) -> (kind: String, radius: Double?) {
        switch shape {
        case .circle(_, let radius): ("circle", radius)
        case .polygons: ("polygon", nil)
        }
    }

    static func wkb(for shape: RegionShape) -> [UInt8] {
        switch shape {
        case .circle(let center, _): WKB.encode(point: center)
        case .polygons(let polygons): WKB.encode(multiPolygon: polygons)
        }
    }

    /// Why `region` cannot be stored, or `nil` when it can.
    private static func invalidityReason(of region: Region, wkb: [UInt8], _ db: Database) throws -> String? {
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
                arguments: [Data(wkb)])
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
