import Logging
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkStore

/// Regions from GeoJSON files as the engine sees them, for replay and export alike.
public enum RegionLoading {
    /// Reads the GeoJSON regions at `paths` (files or folders), imports them into `store`
    /// (validating each polygon with SpatiaLite; `replace` keeps re-runs idempotent), and
    /// returns what the store holds, so the engine runs on exactly what was stored. With no
    /// paths, the regions already in the store.
    public static func load(
        paths: [String], idProperty: String?, numberUnnamedFeatures: Bool, into store: WaymarkStore, logger: Logger
    ) throws -> [Region] {
        if !paths.isEmpty {
            let regions = try GeoJSONRegionLoader.load(
                paths: paths, idProperty: idProperty, unnamedFeatures: numberUnnamedFeatures ? .numberByIndex : .reject)
            let report = try store.importRegions(regions, replace: true)
            logger.debug("imported regions", metadata: ["count": "\(report.importedCount)"])
        }
        return try store.regions()
    }
}
