import Foundation
import Dispatch
import GRDB

/// A raster MBTiles file (the MBTiles 1.3 schema: `metadata`, and `tiles` with rows counted from
/// the south, as TMS does), opened read-only: the user's own offline basemap under the web page's
/// map (`web.basemap`). Reads are blocking; `tile` runs them on a queue of its own, off the
/// cooperative pool.
public final class MBTilesFile: Sendable {
    public let path: String
    /// `name`, `format` (png, jpg, webp), `attribution`, `minzoom`, `maxzoom`, `bounds`…
    public let metadata: [String: String]
    private let database: DatabaseQueue

    public init(path: String) throws(StoreError) {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "MBTiles"
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            metadata = try database.read { db in
                guard try db.tableExists("tiles"), try db.tableExists("metadata") else {
                    throw StoreError(code: .cannotOpen, message: "\(path) is not an MBTiles file: it has no tiles and metadata tables", path: path)
                }
                var values: [String: String] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT name, value FROM metadata") {
                    if let name = row[0] as String?, let value = row[1] as String? { values[name] = value }
                }
                return values
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(code: .cannotOpen, message: "cannot open the MBTiles file \(path): \(error)", path: path)
        }
    }

    /// The image's media type, from `format`.
    public var contentType: String {
        switch metadata["format"]?.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        default: "image/png"
        }
    }

    public var minimumZoom: Int? { metadata["minzoom"].flatMap { Int($0) } }
    public var maximumZoom: Int? { metadata["maxzoom"].flatMap { Int($0) } }

    /// The tile at `zoom`/`x`/`y` in the XYZ scheme web maps use (row 0 at the north), or nil
    /// when the file has none there.
    public func tile(zoom: Int, x: Int, y: Int) async throws -> [UInt8]? {
        try await withCheckedThrowingContinuation { continuation in
            Self.queue.async { [self] in
                continuation.resume(with: Result { try tileBlocking(zoom: zoom, x: x, y: y) })
            }
        }
    }

    /// `tile`, read on the caller's thread: for the command line (`waymark export --basemap`).
    public func tileBlocking(zoom: Int, x: Int, y: Int) throws -> [UInt8]? {
        guard (0...30).contains(zoom), x >= 0, y >= 0, x < 1 << zoom, y < 1 << zoom else { return nil }
        let row = (1 << zoom) - 1 - y
        return try database.read { db in
            try Data.fetchOne(
                db, sql: "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                arguments: [zoom, x, row]).map { Array($0) }
        }
    }

    /// The zooms the file holds tiles for: its `minzoom`…`maxzoom`, or else what its tiles say.
    public func zoomRange() throws -> ClosedRange<Int>? {
        if let least = minimumZoom, let deepest = maximumZoom, least <= deepest { return least...deepest }
        return try database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT MIN(zoom_level), MAX(zoom_level) FROM tiles"),
                let least = row[0] as Int?, let deepest = row[1] as Int?
            else { return nil }
            return least...deepest
        }
    }

    private static let queue = DispatchQueue(label: "org.waymark.mbtiles", attributes: .concurrent)
}
