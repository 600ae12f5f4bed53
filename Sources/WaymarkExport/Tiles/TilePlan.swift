import WaymarkCore
import WaymarkRegions

/// One zoom of a tiled overlay (`--format mbtiles`): the route, the regions and the markers in
/// that zoom's world pixels, and for each tile what crosses it (with room for the widest stroke
/// and marker, so nothing is cut at a tile's edge). Only tiles something crosses are planned:
/// an overlay has no empty tiles. Regions are drawn where they meet the track's surroundings
/// (`area`), as the picture draws them where they meet its map.
public struct TilePlan: Sendable {
    public let zoom: Int
    /// Each segment of the route, thinned to points at least half a pixel apart.
    let route: [[PicturePoint]]
    /// Regions by their index among the overview's (their colour), as rings of pixels.
    let regions: [(index: Int, polygons: [[[PicturePoint]]])]
    let markers: [(kind: TrackEvent.Kind, at: PicturePoint)]
    let start: PicturePoint?
    let end: PicturePoint?
    /// Per tile: the route's edges (segment, first point) and the regions and markers crossing it.
    private(set) var contents: [TileID: Contents] = [:]

    /// The tiles something crosses, north-west first.
    public var tiles: [TileID] { contents.keys.sorted() }

    struct Contents: Sendable {
        var edges: [(segment: Int, point: Int)] = []
        var regions: Set<Int> = []
        var markers: [Int] = []
        var ends = false
    }

    /// Pixels around a feature that still belong to it: half the route's casing, a marker's reach.
    static let reach = 12.0

    public init(zoom: Int, route segments: [[Coordinate]], overview: TrackOverview, area: BoundingBox) {
        self.zoom = zoom
        route = segments.map { segment in
            var kept: [PicturePoint] = []
            for coordinate in segment {
                let point = WebMercator.pixel(coordinate, zoom: zoom)
                if let last = kept.last, abs(point.x - last.x) < 0.5 && abs(point.y - last.y) < 0.5 { continue }
                kept.append(point)
            }
            if segment.count > 1, kept.count == 1, let last = segment.last { kept.append(WebMercator.pixel(last, zoom: zoom)) }
            return kept
        }
        let areaPixels = (WebMercator.pixel(Coordinate(latitude: area.maxLatitude, longitude: area.minLongitude), zoom: zoom),
                          WebMercator.pixel(Coordinate(latitude: area.minLatitude, longitude: area.maxLongitude), zoom: zoom))
        regions = overview.regions.enumerated().compactMap { index, region in
            let polygons = RegionOutline.polygons(of: region).map { polygon in polygon.map { ring in ring.map { WebMercator.pixel($0, zoom: zoom) } } }
            guard let box = Self.box(polygons.flatMap { $0.first ?? [] }),
                box.maxX >= areaPixels.0.x, box.minX <= areaPixels.1.x, box.maxY >= areaPixels.0.y, box.minY <= areaPixels.1.y
            else { return nil }
            return (index, polygons)
        }
        markers = overview.events.map { ($0.kind, WebMercator.pixel($0.coordinate, zoom: zoom)) }
        start = route.first?.first
        end = route.last?.last
        plan(within: areaPixels)
    }

    private mutating func plan(within area: (PicturePoint, PicturePoint)) {
        let reach = Self.reach
        for (s, segment) in route.enumerated() {
            for i in segment.indices {
                let a = segment[i]
                let b = i + 1 < segment.count ? segment[i + 1] : a
                guard i + 1 < segment.count || segment.count == 1 else { continue }
                for tile in tiles(minX: min(a.x, b.x) - reach, minY: min(a.y, b.y) - reach, maxX: max(a.x, b.x) + reach, maxY: max(a.y, b.y) + reach) {
                    contents[tile, default: Contents()].edges.append((s, i))
                }
            }
        }
        for (m, marker) in markers.enumerated() {
            for tile in tiles(minX: marker.at.x - reach, minY: marker.at.y - reach, maxX: marker.at.x + reach, maxY: marker.at.y + reach) {
                contents[tile, default: Contents()].markers.append(m)
            }
        }
        for point in [start, end].compactMap({ $0 }) {
            for tile in tiles(minX: point.x - reach, minY: point.y - reach, maxX: point.x + reach, maxY: point.y + reach) {
                contents[tile, default: Contents()].ends = true
            }
        }
        // Regions only within the track's surroundings: a country-sized region is not tiled whole.
        for (r, region) in regions.enumerated() {
            guard let box = Self.box(region.polygons.flatMap { $0.first ?? [] }) else { continue }
            let minX = max(box.minX, area.0.x) - 2, maxX = min(box.maxX, area.1.x) + 2
            let minY = max(box.minY, area.0.y) - 2, maxY = min(box.maxY, area.1.y) + 2
            guard minX <= maxX, minY <= maxY else { continue }
            for tile in tiles(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { contents[tile, default: Contents()].regions.insert(r) }
        }
    }

    /// The tiles a pixel box touches.
    private func tiles(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [TileID] {
        let size = Double(WebMercator.tileSize)
        let last = (1 << zoom) - 1
        // Clamped conversions: a box that is not finite touches no tile instead of trapping.
        let (from, to) = (0...Int.max, Int.min...last)
        guard let x0 = (minX / size).roundedInteger(.down, clampedTo: from),
            let x1 = (maxX / size).roundedInteger(.down, clampedTo: to),
            let y0 = (minY / size).roundedInteger(.down, clampedTo: from),
            let y1 = (maxY / size).roundedInteger(.down, clampedTo: to),
            x0 <= x1, y0 <= y1
        else { return [] }
        var found: [TileID] = []
        for y in y0...y1 { for x in x0...x1 { found.append(TileID(zoom: zoom, x: x, y: y)) } }
        return found
    }

    private static func box(_ points: [PicturePoint]) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        guard let first = points.first else { return nil }
        var box = (minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        for point in points.dropFirst() {
            box = (min(box.minX, point.x), min(box.minY, point.y), max(box.maxX, point.x), max(box.maxY, point.y))
        }
        return box
    }

    /// Draws `tile` (regions, the route with its casing, markers, start and end, as the picture
    /// draws them) on a canvas of one tile.
    public func draw(_ tile: TileID, on canvas: inout some PictureCanvas) throws {
        guard let contents = contents[tile] else { return }
        let origin = tile.origin
        func local(_ point: PicturePoint) -> PicturePoint { PicturePoint(point.x - origin.x, point.y - origin.y) }
        for r in contents.regions.sorted() {
            let region = regions[r]
            let colour = PicturePalette.region(region.index)
            for polygon in region.polygons {
                for ring in polygon { try canvas.polygon(ring.map(local)) }
            }
            try MapPainter.paintRegion(colour, on: &canvas)
        }
        if !contents.edges.isEmpty {
            for (stroke, width) in [(PicturePalette.white, 6.0), (PicturePalette.route, PicturePalette.routeWidth)] {
                // Consecutive edges of a segment are one path, so the line joins round, not cut.
                var previous: (segment: Int, point: Int)?
                for edge in contents.edges {
                    let points = route[edge.segment]
                    if previous.map({ $0.segment != edge.segment || $0.point + 1 != edge.point }) ?? true {
                        try canvas.move(to: local(points[edge.point]))
                    }
                    try canvas.line(to: local(points[min(edge.point + 1, points.count - 1)]))
                    previous = edge
                }
                try canvas.paint(fill: nil, stroke: PictureStroke(stroke, width: width))
            }
        }
        for m in contents.markers {
            try MapPainter.symbol(markers[m].kind, at: local(markers[m].at), on: &canvas)
        }
        if contents.ends {
            if let end { try MapPainter.symbol(start: false, at: local(end), label: false, on: &canvas) }
            if let start { try MapPainter.symbol(start: true, at: local(start), label: false, on: &canvas) }
        }
    }
}
