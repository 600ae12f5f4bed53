import Logging
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkStore

/// Regions from GeoJSON files as the engine sees them, for replay and export alike.
public enum RegionLoading {
    /// Reads the GeoJSON regions at `paths` (files or folders), imports them into the store
    /// `openStore` opens (validating each polygon with SpatiaLite; `replace` keeps re-runs
    /// idempotent), and returns what the store holds, so the engine runs on exactly what was
    /// stored. With no paths, the regions already in the store.
    ///
    /// The files are decoded before the store is opened and the parser's garbage handed back
    /// first, so it and SpatiaLite's memory do not add up in the peak; the decoded regions are
    /// released before the store's copy is read back (`waymark replay` with 10,000 regions,
    /// BENCHMARKS.md "Replay memory").
    public static func load(
        paths: [String], idProperty: String?, numberUnnamedFeatures: Bool, into openStore: () throws -> WaymarkStore,
        logger: Logger
    ) throws -> [Region] {
        guard !paths.isEmpty else { return try openStore().regions() }
        let store = try importing(
            paths: paths, idProperty: idProperty, numberUnnamedFeatures: numberUnnamedFeatures, into: openStore,
            logger: logger)
        return try store.regions()
    }

    /// Decodes and imports, returning the store: the decoded regions are released on return,
    /// before the store's copy is read back.
    private static func importing(
        paths: [String], idProperty: String?, numberUnnamedFeatures: Bool, into openStore: () throws -> WaymarkStore,
        logger: Logger
    ) throws -> WaymarkStore {
        let decoded = try GeoJSONRegionLoader.load(
            paths: paths, idProperty: idProperty, unnamedFeatures: numberUnnamedFeatures ? .numberByIndex : .reject)
        WaymarkStore.releaseFreedMemory()  // the parser's garbage, before SpatiaLite arrives
        let store = try openStore()
        let report = try store.importRegions(decoded, replace: true)
        logger.debug("imported regions", metadata: ["count": "\(report.importedCount)"])
        return store
    }
}
