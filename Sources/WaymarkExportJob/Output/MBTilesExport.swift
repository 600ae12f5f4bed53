import Foundation
import WaymarkCore
import WaymarkExport
import WaymarkRegions
import WaymarkRender
import WaymarkStore

extension ExportJob {
    /// `--format mbtiles`: the route (every point, read once more and kept: tiles of several
    /// zooms are drawn from it), regions and markers cut into the tiles they cross at each zoom
    /// (`TilePlan`), each tile drawn by cairo and, unless blank, written as PNG into an MBTiles 1.3 file whose
    /// metadata gives the track's bounds, a centre, the zooms, `format` png and `type` overlay.
    static func writeMBTiles(_ overview: TrackOverview, from input: any TrackInput, options: ExportOptions, to path: String) throws -> Int {
        guard let bounds = MapPicture<SVGCanvas<StringSink>>.bounds(of: overview) else {
            throw ExportError(.emptyTrack, "the track has no points: nothing to draw")
        }
        guard bounds.minLongitude <= bounds.maxLongitude, bounds.maxLongitude - bounds.minLongitude < 180 else {
            throw ExportError(.output, "-o \(options.outputPath): a track across the antimeridian cannot be tiled yet")
        }
        let collector = RouteCollector()
        let written = try stream(overview, from: input, options: options, into: collector)
        // The surroundings regions are drawn in: the track's box, and as much again around it.
        let latitudePad = max(bounds.maxLatitude - bounds.minLatitude, 0.01) / 2
        let longitudePad = max(bounds.maxLongitude - bounds.minLongitude, 0.01) / 2
        let area = BoundingBox(
            minLatitude: max(-WebMercator.maxLatitude, bounds.minLatitude - latitudePad), minLongitude: max(-180, bounds.minLongitude - longitudePad),
            maxLatitude: min(WebMercator.maxLatitude, bounds.maxLatitude + latitudePad), maxLongitude: min(180, bounds.maxLongitude + longitudePad))

        let writer = try MBTilesWriter(path: path)
        let canvas = try CairoCanvas(width: WebMercator.tileSize, height: WebMercator.tileSize, path: "")
        var count = 0
        for zoom in options.zooms {
            let plan = TilePlan(zoom: zoom, route: collector.segments, overview: overview, area: area)
            for tile in plan.tiles {
                canvas.clear()
                var drawing = canvas
                try plan.draw(tile, on: &drawing)
                // A tile a region's box reaches but not the region itself stays out.
                guard !canvas.isBlank else { continue }
                try writer.add(zoom: tile.zoom, column: tile.x, row: tile.tmsRow, png: try canvas.pngData())
                count += 1
            }
        }
        guard count > 0 else { throw ExportError(.emptyTrack, "nothing to draw at zooms \(options.zooms)") }
        let centre = bounds.center
        try writer.setMetadata([
            ("name", overview.name ?? "Track"),
            ("description", overview.statistics.headline),
            ("format", "png"),
            ("type", "overlay"),
            ("version", "1.3"),
            ("bounds", [bounds.minLongitude, bounds.minLatitude, bounds.maxLongitude, bounds.maxLatitude].map(Self.degrees).joined(separator: ",")),
            ("center", "\(Self.degrees(centre.longitude)),\(Self.degrees(centre.latitude)),\(options.zooms.lowerBound)"),
            ("minzoom", String(options.zooms.lowerBound)),
            ("maxzoom", String(options.zooms.upperBound)),
            ("attribution", "Drawn by Waymark"),
        ])
        try writer.close()
        return written
    }

    private static func degrees(_ value: Double) -> String { String(format: "%.7f", value) }
}

/// Keeps the route's points by segment (`TilePlan` draws every zoom from them).
final class RouteCollector: TrackWriter {
    private(set) var segments: [[Coordinate]] = []

    func write(_ fix: Fix, startsSegment: Bool) {
        if startsSegment || segments.isEmpty { segments.append([]) }
        segments[segments.count - 1].append(fix.coordinate)
    }

    func finish() {}
}
