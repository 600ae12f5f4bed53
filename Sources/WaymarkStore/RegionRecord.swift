import Foundation
import GRDB
import WaymarkRegions

/// One row of `regions`, geometry as WKB from `ST_AsBinary`. Select it with `RegionRecord.columns`.
struct RegionRecord: FetchableRecord {
    var identifier: String
    var kind: String
    var radius: Double?
    var propertiesJSON: String?
    var importedAt: String
    var geometryWKB: [UInt8]?

    static let columns = "identifier, kind, radius, properties, imported_at, ST_AsBinary(geometry) AS geometry_wkb"

    init(row: Row) {
        identifier = row["identifier"]
        kind = row["kind"]
        radius = row["radius"]
        propertiesJSON = row["properties"]
        importedAt = row["imported_at"]
        let data: Data? = row["geometry_wkb"]
        geometryWKB = data.map { [UInt8]($0) }
    }

    /// The region this row stores.
    func region() throws -> Region {
        func corrupt(_ reason: String) -> StoreError {
            StoreError(code: .corruptRegion, message: "region '\(identifier)': \(reason)", identifiers: [identifier])
        }
        guard let geometryWKB else { throw corrupt("the geometry is NULL or not a SpatiaLite geometry") }
        let geometry: WKB.Geometry
        do {
            geometry = try WKB.decode(geometryWKB)
        } catch {
            throw corrupt("the geometry cannot be decoded (\(error))")
        }
        switch (kind, geometry) {
        case ("circle", .point(let center)):
            guard let radius else { throw corrupt("a circle without a radius") }
            return Region(identifier: identifier, shape: .circle(center: center, radius: radius), propertiesJSON: propertiesJSON)
        case ("polygon", .multiPolygon(let polygons)):
            return Region(identifier: identifier, shape: .polygons(polygons), propertiesJSON: propertiesJSON)
        default:
            throw corrupt("kind '\(kind)' does not match its geometry")
        }
    }
}
