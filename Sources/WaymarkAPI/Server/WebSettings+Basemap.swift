import Foundation
import Logging
import WaymarkStore

/// Which basemap the page's map draws (docs/web.md, "Basemap").
public enum BasemapChoice: Sendable, Equatable {
    /// `web.tiles`: the browser fetches them from their server.
    case tiles(String)
    /// `web.basemap`: the user's own MBTiles file.
    case file(String)
    /// Neither named: the offline basemap scripts/basemap-data.sh installed.
    case installed(String)
    /// `web.basemap: none`.
    case off
    /// Neither named, and no basemap installed at this path: a plain background.
    case notInstalled(String)
}

extension WebSettings {
    /// The named tiles or file win; `web.basemap: none` turns the basemap off; else the installed
    /// file when `exists` says it is there.
    public func basemapChoice(exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> BasemapChoice {
        if let tiles { return .tiles(tiles) }
        if let basemapFile { return .file(basemapFile) }
        if basemapOff { return .off }
        return exists(installedBasemapFile) ? .installed(installedBasemapFile) : .notInstalled(installedBasemapFile)
    }

    /// The MBTiles file to serve at `GET /v1/tiles/{z}/{x}/{y}`, opened off the cooperative
    /// pool, or nil; says at info which basemap the page draws. Throws `StoreError` naming a file
    /// that cannot be opened as MBTiles.
    public func openBasemap(logger: Logger) async throws -> MBTilesFile? {
        switch try await WaymarkStore.offPool({ basemapChoice() }) {
        case .tiles(let template):
            logger.info("web page basemap: tiles from \(template) (web.tiles)")
        case .file(let path):
            logger.info("web page basemap: \(path) (web.basemap)")
            return try await WaymarkStore.offPool { try MBTilesFile(path: path) }
        case .installed(let path):
            logger.info("web page basemap: \(path), the installed offline basemap (web.basemap: none turns it off)")
            return try await WaymarkStore.offPool { try MBTilesFile(path: path) }
        case .off:
            logger.info("web page basemap: none (web.basemap: none); the map has a plain background")
        case .notInstalled(let path):
            logger.info("web page basemap: none installed at \(path) (scripts/basemap-data.sh draws it); the map has a plain background")
        }
        return nil
    }
}
