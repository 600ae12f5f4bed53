import Foundation
import Testing
import WaymarkCore
@testable import WaymarkExport
import WaymarkRegions
import WaymarkRender
import WaymarkTestSupport

@Suite struct PictureTests {
    static let bounds = BoundingBox(minLatitude: 47.34, minLongitude: 8.67, maxLatitude: 47.372, maxLongitude: 8.725)

    @Test(arguments: [0.0, 47.0, 69.0, -33.9])
    func aPixelIsTheSameDistanceEastAndNorth(latitude: Double) {
        let box = BoundingBox(minLatitude: latitude - 0.02, minLongitude: 10, maxLatitude: latitude + 0.02, maxLongitude: 10.05)
        let frame = MapFrame(fitting: box, origin: PicturePoint(0, 0), width: 1000, heightRange: 100...2000)
        let (dx, dy) = frame.degreesPerPixel
        let centre = box.center
        let east = Geodesic.distance(centre, Coordinate(latitude: centre.latitude, longitude: centre.longitude + 100 * dx)) / 100
        let north = Geodesic.distance(centre, Coordinate(latitude: centre.latitude + 100 * dy, longitude: centre.longitude)) / 100
        #expect(abs(east - north) / north < 1e-3)
        #expect(abs(north - frame.metresPerPixel) / north < 1e-3)
        // The track's box is inside the frame, with a margin.
        let corner = frame.point(Coordinate(latitude: box.maxLatitude, longitude: box.minLongitude))
        #expect(corner.x > 0 && corner.y > 0 && corner.x < frame.width && corner.y < frame.height)
    }

    @Test func theWorldFileMapsPixelCentresToCoordinates() {
        let layout = PictureLayout(bounds: Self.bounds, width: 800, kind: .overlay)
        let lines = Georeference.worldFile(for: layout.map).split(separator: "\n").compactMap { Double($0) }
        #expect(lines.count == 6)
        let target = Coordinate(latitude: 47.35, longitude: 8.7)
        let pixel = layout.map.point(target)
        // The world file's affine map from a pixel's column/row (its centre at +0.5) back to degrees.
        let longitude = lines[0] * (pixel.x - 0.5) + lines[4]
        let latitude = lines[3] * (pixel.y - 0.5) + lines[5]
        #expect(abs(longitude - target.longitude) < 1e-9 && abs(latitude - target.latitude) < 1e-9)
    }

    @Test func scaleBarLengthsAreRound() {
        #expect([0.9, 1, 3.2, 7, 19, 480, 2600].map(NiceNumber.atMost) == [0.5, 1, 2, 5, 10, 200, 2000])
        #expect(MapDecorations.label(2000) == "2 km" && MapDecorations.label(500) == "500 m")
    }

    static func lakesideOverview() throws -> (TrackOverview, [(fix: Fix, startsSegment: Bool)]) {
        let points = try trackPoints(ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path)
        var statistics = TrackStatisticsAccumulator()
        var box = BoundingBox(points[0].fix.coordinate)
        for point in points {
            statistics.add(point.fix, startsSegment: point.startsSegment)
            box.formUnion(point.fix.coordinate)
        }
        let events = [
            TrackEvent(kind: .enter, time: points[300].fix.time, coordinate: points[300].fix.coordinate, region: "a", name: "Enter a", description: ""),
            TrackEvent(kind: .exit, time: points[900].fix.time, coordinate: points[900].fix.coordinate, region: "a", name: "Exit a", description: ""),
        ]
        let region = Region(identifier: "a", shape: .circle(center: points[600].fix.coordinate, radius: 500))
        return (TrackOverview(name: "Lakeside", statistics: statistics.result, bounds: box, events: events, regions: [region]), points)
    }

    @Test func theSVGHasEveryPartAndMarker() throws {
        let (overview, points) = try Self.lakesideOverview()
        let layout = PictureLayout(bounds: MapPicture<SVGCanvas<TextBuffer>>.bounds(of: overview)!, width: 900, kind: .picture)
        let buffer = TextBuffer()
        var picture = MapPicture(canvas: try SVGCanvas(sink: buffer, width: layout.width, height: layout.height), layout: layout, overview: overview)
        for point in points { try picture.write(point.fix, startsSegment: point.startsSegment) }
        try picture.finish()
        let svg = buffer.text
        for id in ["map", "regions", "route", "markers", "scale-bar", "north-arrow", "legend", "profile", "header"] {
            #expect(svg.contains("id=\"\(id)\""), "no \(id)")
        }
        #expect(svg.components(separatedBy: "class=\"marker enter\"").count - 1 == 1)
        #expect(svg.components(separatedBy: "class=\"marker exit\"").count - 1 == 1)
        #expect(svg.contains("class=\"marker start\"") && svg.contains("class=\"marker end\""))
        #expect(svg.components(separatedBy: "class=\"profile-marker").count - 1 == 2)
        // The route, simplified to a third of a pixel, is far shorter than the track but stays in the map.
        #expect(picture.routePointCount > 50 && picture.routePointCount < points.count / 3)
        let map = layout.map
        let extent = try #require(picture.routeExtent)
        #expect(extent.minX >= map.origin.x && extent.maxX <= map.origin.x + map.width)
        #expect(extent.minY >= map.origin.y && extent.maxY <= map.origin.y + map.height)
    }

    /// A track near Fiji over the antimeridian, with an event and a circle region on each side
    /// of it: the picture is a frame of a few kilometres around it, not the whole world.
    @Test(arguments: [PictureLayout.Kind.picture, .overlay])
    func aTrackOverTheSeamIsDrawnInAFrameAroundItsShortSpan(kind: PictureLayout.Kind) throws {
        let longitudes = [179.95, 179.98, -179.99, -179.96, -179.93]
        let fixes = longitudes.enumerated().map { index, longitude in
            Fix(time: nil, coordinate: Coordinate(latitude: -17 - 0.01 * Double(index), longitude: longitude))
        }
        var statistics = TrackStatisticsAccumulator()
        var bounds = TrackBoundsAccumulator()
        for (index, fix) in fixes.enumerated() {
            statistics.add(fix, startsSegment: index == 0)
            bounds.add(fix.coordinate)
        }
        let events = [fixes[1], fixes[3]].map {
            TrackEvent(kind: .enter, time: nil, coordinate: $0.coordinate, region: "a", name: "Enter a", description: "")
        }
        let regions = [fixes[1], fixes[3]].enumerated().map { index, fix in
            Region(identifier: "r\(index)", shape: .circle(center: fix.coordinate, radius: 300))
        }
        let overview = TrackOverview(statistics: statistics.result, bounds: bounds.bounds, events: events, regions: regions)
        let layout = PictureLayout(bounds: try #require(MapPicture<SVGCanvas<TextBuffer>>.bounds(of: overview)), width: 800, kind: kind)
        let buffer = TextBuffer()
        var picture = MapPicture(canvas: try SVGCanvas(sink: buffer, width: layout.width, height: layout.height), layout: layout, overview: overview)
        for (index, fix) in fixes.enumerated() { try picture.write(fix, startsSegment: index == 0) }
        try picture.finish()
        let map = layout.map
        // The track spans 0.12° of longitude; the frame that, with its margin, not 360°.
        #expect(map.east - map.west < 0.2, "frame \(map.west)…\(map.east)")
        #expect(map.west < 179.95 && map.east > 180.07)
        // Every point is inside the map, and the route covers most of its width (not a line across it).
        let extent = try #require(picture.routeExtent)
        #expect(extent.minX >= map.origin.x && extent.maxX <= map.origin.x + map.width)
        #expect(extent.maxX - extent.minX > 0.7 * map.width)
        for coordinate in events.map(\.coordinate) + regions.flatMap({ RegionOutline.polygons(of: $0).joined().joined() }) {
            let pixel = map.point(coordinate)
            #expect(pixel.x >= map.origin.x && pixel.x <= map.origin.x + map.width, "\(coordinate) at \(pixel.x)")
        }
        // Both regions, one each side of the seam, are drawn and labelled.
        let svg = buffer.text
        #expect(svg.components(separatedBy: "class=\"region\"").count - 1 == 2)
        let labels = try #require(svg.components(separatedBy: "id=\"region-labels\"").last?.components(separatedBy: "id=\"markers\"").first)
        #expect(labels.contains(">r0<") && labels.contains(">r1<"))
    }

    @Test func thePNGIsDrawnAtItsSizeAndIsNotBlank() throws {
        let (overview, points) = try Self.lakesideOverview()
        let directory = try TemporaryDirectory()
        let path = directory.path("picture.png")
        let layout = PictureLayout(bounds: overview.bounds!, width: 700, kind: .picture)
        var picture = MapPicture(canvas: try CairoCanvas(width: 700, height: Int(layout.height), path: path), layout: layout, overview: overview)
        for point in points { try picture.write(point.fix, startsSegment: point.startsSegment) }
        try picture.finish()
        let image = try PNGImage(path: path)
        #expect(image.width == 700 && image.height == Int(layout.height))
        #expect(image.opaquePixels == image.width * image.height, "a picture has an opaque background")
        #expect(image.distinctColours > 50, "only \(image.distinctColours) colours: blank?")
    }

    @Test func aCanvasRefusesAnImpossibleSize() {
        #expect(throws: RenderError.self) { try CairoCanvas(width: 0, height: 10, path: "/tmp/never.png") }
    }
}
