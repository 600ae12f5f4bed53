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
    var options: RegionOptions

    /// The monitoring options are properties (validated when the GeoJSON was decoded), read
    /// with `json_extract` so the properties stay their single source.
    static let columns = "identifier, kind, radius, properties, imported_at, ST_AsBinary(geometry) AS geometry_wkb, "
        + optionColumns

    /// The options among `properties`, one column each, for `options(from:)`.
    static let optionColumns = optionKeys.map { "json_extract(properties, '$.\($0)') AS option_\($0)" }
        .joined(separator: ", ")

    private static let optionKeys = [
        RegionOptions.Key.notifyOnEntry, RegionOptions.Key.notifyOnExit, RegionOptions.Key.initialTrigger,
        RegionOptions.Key.loiteringDelay, RegionOptions.Key.hysteresis, RegionOptions.Key.confirmationTime,
        RegionOptions.Key.exitTimeout, RegionOptions.Key.enterDelay, RegionOptions.Key.exitDelay, RegionOptions.Key.margin,
        RegionOptions.Key.maxAccuracy, RegionOptions.Key.priority,
    ]

    init(row: Row) {
        identifier = row["identifier"]
        kind = row["kind"]
        radius = row["radius"]
        propertiesJSON = row["properties"]
        importedAt = row["imported_at"]
        let data: Data? = row["geometry_wkb"]
        geometryWKB = data.map { [UInt8]($0) }
        options = Self.options(from: row)
    }

    /// The options read by `optionColumns`.
    static func options(from row: Row) -> RegionOptions {
        func option<T: DatabaseValueConvertible>(_ key: String) -> T? { row["option_" + key] }
        typealias Key = RegionOptions.Key
        var options = RegionOptions()
        if let value: Bool = option(Key.notifyOnEntry) { options.notifyOnEntry = value }
        if let value: Bool = option(Key.notifyOnExit) { options.notifyOnExit = value }
        if let value: Bool = option(Key.initialTrigger) { options.initialTrigger = value }
        options.loiteringDelay = option(Key.loiteringDelay)
        // The decoder let both names through only when they agree.
        options.hysteresis = option(Key.margin) ?? option(Key.hysteresis)
        options.confirmationTime = option(Key.confirmationTime)
        options.exitTimeout = option(Key.exitTimeout)
        options.enterDelay = option(Key.enterDelay)
        options.exitDelay = option(Key.exitDelay)
        options.maxAccuracy = option(Key.maxAccuracy)
        // An integer the decoder checked; JSON text such as `10.0` or `1e3` reads back as a REAL.
        options.priority = (option(Key.priority) as Double?).flatMap { Int(exactly: $0) }
        return options
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
            return Region(identifier: identifier, shape: .circle(center: center, radius: radius), propertiesJSON: propertiesJSON,
                options: options)
        case ("polygon", .multiPolygon(let polygons)):
            return Region(identifier: identifier, shape: .polygons(polygons), propertiesJSON: propertiesJSON, options: options)
        default:
            throw corrupt("kind '\(kind)' does not match its geometry")
        }
    }
}
