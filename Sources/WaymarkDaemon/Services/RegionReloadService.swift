import Logging
import ServiceLifecycle
import UnixSignals
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkStore

/// Loads the configured region files into the store and the engine: once at start, and again
/// on SIGHUP (`systemctl reload waymark`). A bad file on reload is logged and the regions in
/// force stay as they were.
struct RegionReloadService: Service {
    let loader: RegionLoader
    let pipeline: LivePipeline
    let fleet: DeviceFleet
    let logger: Logger

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            logger.notice("SIGHUP: reloading regions")
            do {
                let regions = try await loader.load()
                await pipeline.adopt(regions)
                await fleet.adopt(regions)
            } catch {
                logger.error("Regions not reloaded; the previous ones stay in force", metadata: ["error": "\(error)"])
            }
        }
    }
}

/// Imports the configured GeoJSON paths into the store (replacing same-named regions) and
/// returns every stored region: what the engine monitors.
struct RegionLoader: Sendable {
    let store: WaymarkStore
    let paths: [String]
    let idProperty: String?

    /// Reads the files and writes the store on the store's own queue (file reads, parsing and
    /// SQLite all block), not on the cooperative pool.
    func load() async throws -> [Region] {
        try await store.offPool { [paths, idProperty] store in
            if !paths.isEmpty {
                let regions = try GeoJSONRegionLoader.load(paths: paths, idProperty: idProperty)
                try store.importRegions(regions, replace: true)
            }
            return try store.regions()
        }
    }
}
