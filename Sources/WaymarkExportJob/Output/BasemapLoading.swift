import Foundation
import WaymarkCore
import WaymarkExport
import WaymarkStore

extension ExportJob {
    /// The `--basemap` tiles under `layout`'s map: the zoom as sharp as the picture among the
    /// file's (`Basemap.zoom`), the tiles it has there. A file that is not MBTiles, or whose tiles
    /// are not PNG (cairo draws PNG only), is an error naming it.
    static func basemap(for layout: PictureLayout, options: ExportOptions) throws -> Basemap? {
        guard let path = options.basemapPath else { return nil }
        guard FileManager.default.fileExists(atPath: path) else { throw ExportError(.input, "--basemap \(path): no such file") }
        let file: MBTilesFile
        do {
            file = try MBTilesFile(path: path)
        } catch {
            throw ExportError(.input, "--basemap \(error.message)")
        }
        if let format = file.metadata["format"]?.lowercased(), format != "png" {
            throw ExportError(
                .input, "--basemap \(path): its tiles are \(format); Waymark draws PNG tiles (gdal_translate -co TILE_FORMAT=PNG makes them)")
        }
        do {
            guard let zooms = try file.zoomRange() else { throw ExportError(.input, "--basemap \(path): it has no tiles") }
            let zoom = Basemap.zoom(for: layout.map, available: zooms)
            let tiles = try Basemap.tiles(covering: layout.map, zoom: zoom).compactMap { id in
                try file.tileBlocking(zoom: id.zoom, x: id.x, y: id.y).map { Basemap.Tile(id: id, png: $0) }
            }
            return Basemap(tiles: tiles, attribution: file.metadata["attribution"])
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError(.input, "--basemap \(path): cannot read its tiles: \(error)")
        }
    }
}
