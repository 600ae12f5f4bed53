import Foundation
import WaymarkCore

/// The user's own raster tiles under the map (`--basemap FILE.mbtiles`; Waymark fetches
/// nothing): the tiles of one zoom that cover the map, and the attribution to print. Each tile
/// is drawn over the rectangle its corners fall on in the picture: the picture is affine in
/// longitude and latitude and a Web Mercator tile is not, but within a tile of zoom 10 or more
/// the difference is under a fifth of a pixel.
public struct Basemap: Sendable {
    public struct Tile: Sendable {
        public var id: TileID
        public var png: [UInt8]

        public init(id: TileID, png: [UInt8]) {
            self.id = id
            self.png = png
        }
    }

    public var tiles: [Tile]
    /// From the file's `attribution` metadata, printed in the map's corner.
    public var attribution: String?

    public init(tiles: [Tile], attribution: String?) {
        self.tiles = tiles
        self.attribution = attribution
    }

    /// The most tiles a picture draws; a deeper zoom needing more is passed over for a coarser one.
    public static let tileLimit = 400

    /// The zoom to draw `frame` with from a file holding `available`: the least whose pixels are
    /// no larger than the map's, so the basemap is as sharp as the picture, within `tileLimit`.
    public static func zoom(for frame: MapFrame, available: ClosedRange<Int>) -> Int {
        let centre = (frame.north + frame.south) / 2 * .pi / 180
        let atZoomZero = 2 * .pi * 6_378_137 * cos(centre) / Double(WebMercator.tileSize)
        var zoom = min(available.upperBound, max(available.lowerBound, (log2(atZoomZero / frame.metresPerPixel).roundedInteger(.up, clampedTo: available) ?? available.lowerBound)))
        while zoom > available.lowerBound && tiles(covering: frame, zoom: zoom).count > tileLimit { zoom -= 1 }
        return zoom
    }

    /// The tiles of `zoom` the map shows.
    public static func tiles(covering frame: MapFrame, zoom: Int) -> [TileID] {
        let north = WebMercator.pixel(Coordinate(latitude: frame.north, longitude: frame.west), zoom: zoom)
        let south = WebMercator.pixel(Coordinate(latitude: frame.south, longitude: frame.east), zoom: zoom)
        let size = Double(WebMercator.tileSize)
        let last = (1 << zoom) - 1
        // Clamped conversions: a frame that is not finite covers no tile instead of trapping.
        let (from, to) = (0...Int.max, Int.min...last)
        guard let x0 = (north.x / size).roundedInteger(.towardZero, clampedTo: from),
            let x1 = (south.x / size).roundedInteger(.towardZero, clampedTo: to),
            let y0 = (north.y / size).roundedInteger(.towardZero, clampedTo: from),
            let y1 = (south.y / size).roundedInteger(.towardZero, clampedTo: to),
            x0 <= x1, y0 <= y1
        else { return [] }
        return (y0...y1).flatMap { y in (x0...x1).map { TileID(zoom: zoom, x: $0, y: y) } }
    }

    /// Where a tile lies in the picture: its north-west and south-east corners through the frame,
    /// rounded to whole pixels, so neighbouring tiles share their edge exactly (no seam).
    static func rectangle(of tile: TileID, in frame: MapFrame) -> (x: Double, y: Double, width: Double, height: Double) {
        let size = Double(WebMercator.tileSize)
        let northWest = frame.point(WebMercator.coordinate(tile.origin, zoom: tile.zoom))
        let southEast = frame.point(WebMercator.coordinate(PicturePoint(tile.origin.x + size, tile.origin.y + size), zoom: tile.zoom))
        let (left, top) = (northWest.x.rounded(), northWest.y.rounded())
        return (left, top, southEast.x.rounded() - left, southEast.y.rounded() - top)
    }

    /// Draws the tiles (inside the map's clip) and, separately, the attribution.
    func draw(on canvas: inout some PictureCanvas, frame: MapFrame) throws {
        try canvas.beginGroup(id: "basemap")
        for tile in tiles {
            let rectangle = Self.rectangle(of: tile.id, in: frame)
            try canvas.image(png: tile.png, x: rectangle.x, y: rectangle.y, width: rectangle.width, height: rectangle.height)
        }
        try canvas.endGroup()
    }

    func drawAttribution(on canvas: inout some PictureCanvas, frame: MapFrame) throws {
        guard let attribution, !attribution.isEmpty else { return }
        try canvas.beginGroup(id: "attribution")
        try canvas.text(
            attribution, at: PicturePoint(frame.origin.x + frame.width - 6, frame.origin.y + frame.height - 6),
            style: PictureTextStyle(size: 10, color: PicturePalette.secondaryInk, anchor: .end, halo: PicturePalette.halo))
        try canvas.endGroup()
    }
}
