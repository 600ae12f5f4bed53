import Foundation
import WaymarkCore

/// Web Mercator (EPSG:3857) as slippy-map tiles use it: at zoom z the world is 256 · 2^z pixels
/// square, x eastward from the antimeridian, y southward from 85.0511° N.
public enum WebMercator {
    public static let tileSize = 256
    /// The latitude where the square world ends.
    public static let maxLatitude = 85.051_128_779_806_59

    /// The pixel of `coordinate` in the world at `zoom`.
    public static func pixel(_ coordinate: Coordinate, zoom: Int) -> PicturePoint {
        let size = worldSize(zoom)
        let latitude = min(max(coordinate.latitude, -maxLatitude), maxLatitude) * .pi / 180
        let x = (coordinate.longitude + 180) / 360 * size
        let y = (1 - log(tan(latitude) + 1 / cos(latitude)) / .pi) / 2 * size
        return PicturePoint(x, y)
    }

    /// The coordinate at a pixel of the world at `zoom`.
    public static func coordinate(_ pixel: PicturePoint, zoom: Int) -> Coordinate {
        let size = worldSize(zoom)
        let longitude = pixel.x / size * 360 - 180
        let latitude = atan(sinh(.pi * (1 - 2 * pixel.y / size))) * 180 / .pi
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    static func worldSize(_ zoom: Int) -> Double { Double(tileSize) * pow(2, Double(zoom)) }
}

/// A tile in the XYZ scheme (row 0 at the north).
public struct TileID: Hashable, Sendable, Comparable {
    public var zoom: Int
    public var x: Int
    public var y: Int

    public init(zoom: Int, x: Int, y: Int) {
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    /// The row as MBTiles (TMS) counts it, from the south.
    public var tmsRow: Int { (1 << zoom) - 1 - y }

    /// The tile's top-left pixel in the world.
    public var origin: PicturePoint { PicturePoint(Double(x * WebMercator.tileSize), Double(y * WebMercator.tileSize)) }

    public static func < (a: TileID, b: TileID) -> Bool { (a.zoom, a.y, a.x) < (b.zoom, b.y, b.x) }
}
