import Foundation
import GRDB

/// Writes a raster MBTiles 1.3 file: `metadata` (name, format, bounds, center, minzoom, maxzoom,
/// type…) and `tiles`, rows counted from the south as TMS does; the index on
/// (zoom_level, tile_column, tile_row) the spec asks for. Tiles go in transactions of a few
/// hundred. Blocking: for the command line (`waymark export --format mbtiles`).
public final class MBTilesWriter {
    private let database: DatabaseQueue
    private var pending: [(zoom: Int, column: Int, row: Int, data: [UInt8])] = []

    /// Creates the schema in `path`, which must be a new or empty file.
    public init(path: String) throws(StoreError) {
        var configuration = Configuration()
        configuration.label = "MBTiles writer"
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            try database.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE metadata (name TEXT, value TEXT);
                        CREATE UNIQUE INDEX name ON metadata (name);
                        CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                        CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                        """)
            }
        } catch {
            throw StoreError(code: .cannotOpen, message: "cannot create the MBTiles file \(path): \(error)", path: path)
        }
    }

    public func setMetadata(_ values: [(name: String, value: String)]) throws(StoreError) {
        do {
            try database.write { db in
                for (name, value) in values {
                    try db.execute(sql: "INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)", arguments: [name, value])
                }
            }
        } catch {
            throw StoreError(code: .database, message: "writing MBTiles metadata: \(error)")
        }
    }

    /// Adds the tile at `zoom`, `column` and TMS `row`.
    public func add(zoom: Int, column: Int, row: Int, png: [UInt8]) throws(StoreError) {
        pending.append((zoom, column, row, png))
        if pending.count >= 256 { try flush() }
    }

    /// Writes the tiles added so far.
    public func flush() throws(StoreError) {
        guard !pending.isEmpty else { return }
        let tiles = pending
        pending.removeAll(keepingCapacity: true)
        do {
            try database.write { db in
                let statement = try db.makeStatement(
                    sql: "INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")
                for tile in tiles { try statement.execute(arguments: [tile.zoom, tile.column, tile.row, Data(tile.data)]) }
            }
        } catch {
            throw StoreError(code: .database, message: "writing MBTiles tiles: \(error)")
        }
    }

    /// Writes what is left and closes the file.
    public func close() throws(StoreError) {
        try flush()
        do {
            try database.close()
        } catch {
            throw StoreError(code: .database, message: "closing the MBTiles file: \(error)")
        }
    }
}
