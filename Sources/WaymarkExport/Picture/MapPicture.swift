import WaymarkCore
import WaymarkRegions

/// A picture of the track (`PictureLayout`), painted while the points stream in: the paper,
/// header and regions before the first point; the route, simplified to a third of a pixel, in
/// chunks of at most `chunkPoints` points as it arrives (each chunk its white casing, then its
/// red line, so where the route crosses itself the later pass lies on top); everything else in
/// `finish()`. Memory is flat for any track length: one chunk, the simplifier's window and the
/// elevation profile's columns.
///
/// Drawing order: paper, header, map (regions, route, region labels, significant changes,
/// visits, enter/exit, start and end), scale bar, north arrow, the legend in a row beneath the
/// map (so it never hides the route), profile. SVG groups:
/// `header`, `map`, `basemap` (with `--basemap`), `regions`, `route`, `region-labels`, `markers`,
/// `attribution`, `scale-bar`, `north-arrow`, `legend`, `profile`, `profile-regions`; every marker is a group with class `marker KIND` and a `<title>`.
public struct MapPicture<Canvas: PictureCanvas>: TrackWriter {
    public private(set) var canvas: Canvas
    public let layout: PictureLayout
    private let overview: TrackOverview
    private var simplifier: TrackSimplifier
    private var kept: [TrackSimplifier.Kept] = []
    /// Route points not painted yet (the current segment's); the first is the last painted one
    /// when the segment continues a chunk.
    private var pending: [PicturePoint] = []
    private var begun = false
    /// Route points painted so far, and the box around them (pixels).
    public private(set) var routePointCount = 0
    public private(set) var routeExtent: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
    public static var chunkPoints: Int { 1024 }
    private var profile: ElevationProfile
    private var start: Coordinate?
    private var end: Coordinate?
    private let basemap: Basemap?

    public init(canvas: Canvas, layout: PictureLayout, overview: TrackOverview, basemap: Basemap? = nil) {
        self.canvas = canvas
        self.layout = layout
        self.overview = overview
        self.basemap = basemap
        simplifier = TrackSimplifier(tolerance: max(0.1, layout.map.metresPerPixel / 3))
        profile = ElevationProfile(
            columns: Int(layout.profile?.width ?? 1), totalDistance: overview.statistics.distance, events: overview.events)
    }

    /// The box a picture of `overview` must show: the track and its events, each event the
    /// short way round from the track's centre (so over the antimeridian it stays beside it).
    public static func bounds(of overview: TrackOverview) -> BoundingBox? {
        guard var bounds = overview.bounds else { return nil }
        let centre = bounds.center.longitude
        for event in overview.events {
            let longitude = Coordinate.longitude(event.coordinate.longitude, near: centre)
            bounds.formUnion(Coordinate(latitude: event.coordinate.latitude, longitude: longitude))
        }
        return bounds
    }

    public mutating func write(_ fix: Fix, startsSegment: Bool) throws {
        if !begun { try begin() }
        if start == nil { start = fix.coordinate }
        end = fix.coordinate
        if layout.profile != nil { profile.add(fix, startsSegment: startsSegment) }
        simplifier.add(fix, startsSegment: startsSegment, into: &kept)
        try takeKept()
    }

    private mutating func takeKept() throws {
        for point in kept {
            if point.startsSegment { try paintPending(endOfSegment: true) }
            let pixel = layout.map.point(point.fix.coordinate)
            pending.append(pixel)
            routePointCount += 1
            let extent = routeExtent ?? (pixel.x, pixel.y, pixel.x, pixel.y)
            routeExtent = (min(extent.minX, pixel.x), min(extent.minY, pixel.y), max(extent.maxX, pixel.x), max(extent.maxY, pixel.y))
            if pending.count >= Self.chunkPoints { try paintPending(endOfSegment: false) }
        }
        kept.removeAll(keepingCapacity: true)
    }

    /// Paints the pending chunk; unless the segment ends, its last point starts the next chunk.
    private mutating func paintPending(endOfSegment: Bool) throws {
        guard !pending.isEmpty else { return }
        if pending.count > 1 || endOfSegment { try MapPainter.route(pending, on: &canvas) }
        let last = pending[pending.count - 1]
        pending.removeAll(keepingCapacity: true)
        if !endOfSegment { pending.append(last) }
    }

    /// Paper, header, the map's clip and background, and the regions: all that lies under the route.
    private mutating func begin() throws {
        begun = true
        let map = layout.map
        if layout.kind == .picture {
            try canvas.rectangle(x: 0, y: 0, width: layout.width, height: layout.height)
            try canvas.paint(fill: PicturePalette.paper, stroke: nil)
            try paintHeader()
        }
        try canvas.beginGroup(id: "map", classes: nil, title: nil, clip: (map.origin, map.width, map.height))
        if layout.kind == .picture {
            try canvas.rectangle(x: map.origin.x, y: map.origin.y, width: map.width, height: map.height)
            try canvas.paint(fill: PicturePalette.mapBackground, stroke: nil)
        }
        try basemap?.draw(on: &canvas, frame: map)
        try MapPainter.regions(overview.regions, frame: map, on: &canvas)
        try canvas.beginGroup(id: "route")
    }

    public mutating func finish() throws {
        if !begun { try begin() }
        simplifier.finish(into: &kept)
        try takeKept()
        try paintPending(endOfSegment: true)
        try canvas.endGroup()
        let map = layout.map
        try MapPainter.labels(overview.regions, frame: map, on: &canvas)
        try MapPainter.markers(overview.events, start: start, end: end, frame: map, on: &canvas)
        try basemap?.drawAttribution(on: &canvas, frame: map)
        try canvas.endGroup()
        if layout.kind == .picture {
            try canvas.rectangle(x: map.origin.x, y: map.origin.y, width: map.width, height: map.height)
            try canvas.paint(fill: nil, stroke: PictureStroke(PicturePalette.frame, width: 1))
            try MapDecorations.scaleBar(frame: map, on: &canvas)
            try MapDecorations.northArrow(frame: map, on: &canvas)
            try MapDecorations.legend(for: overview, at: PicturePoint(map.origin.x, layout.legendBaseline), on: &canvas)
            if let area = layout.profile { try ProfilePainter.paint(profile, area: area, overview: overview, on: &canvas) }
        }
        try canvas.finish()
    }

    private mutating func paintHeader() throws {
        try canvas.beginGroup(id: "header")
        let title = overview.name ?? "Track"
        try canvas.text(
            title, at: PicturePoint(PictureLayout.margin, 28),
            style: PictureTextStyle(size: 20, color: PicturePalette.ink, bold: true))
        var line = overview.statistics.headline
        if let start = overview.statistics.startTime { line += " · " + start.rfc3339 }
        try canvas.text(
            line, at: PicturePoint(PictureLayout.margin, 52),
            style: PictureTextStyle(size: 14, color: PicturePalette.secondaryInk))
        try canvas.endGroup()
    }
}
