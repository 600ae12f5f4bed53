import WaymarkCore
import WaymarkRegions

/// A picture of the track (`PictureLayout`): receives the points as a `TrackWriter`, keeps a
/// copy of the route simplified to a third of a pixel and the elevation profile's columns (so
/// memory stays flat for any track length), then paints everything onto the canvas in
/// `finish()`.
///
/// Drawing order: paper, header, map (regions, route, significant changes, visits, enter/exit,
/// start and end), scale bar, north arrow, legend, profile. SVG groups: `header`, `map`,
/// `regions`, `route`, `markers`, `scale-bar`, `north-arrow`, `legend`, `profile`; every marker
/// is a group with class `marker KIND` and a `<title>`.
public struct MapPicture<Canvas: PictureCanvas>: TrackWriter {
    public private(set) var canvas: Canvas
    public let layout: PictureLayout
    private let overview: TrackOverview
    private var simplifier: TrackSimplifier
    private var kept: [TrackSimplifier.Kept] = []
    /// The route in pixels, one array per segment.
    public private(set) var route: [[PicturePoint]] = []
    private var profile: ElevationProfile
    private var start: Coordinate?
    private var end: Coordinate?

    public init(canvas: Canvas, layout: PictureLayout, overview: TrackOverview) {
        self.canvas = canvas
        self.layout = layout
        self.overview = overview
        simplifier = TrackSimplifier(tolerance: max(0.1, layout.map.metresPerPixel / 3))
        profile = ElevationProfile(
            columns: Int(layout.profile?.width ?? 1), totalDistance: overview.statistics.distance, events: overview.events)
    }

    /// The box a picture of `overview` must show: the track and its events.
    public static func bounds(of overview: TrackOverview) -> BoundingBox? {
        guard var bounds = overview.bounds else { return nil }
        for event in overview.events { bounds.formUnion(event.coordinate) }
        return bounds
    }

    public mutating func write(_ fix: Fix, startsSegment: Bool) throws {
        if start == nil { start = fix.coordinate }
        end = fix.coordinate
        if layout.profile != nil { profile.add(fix, startsSegment: startsSegment) }
        simplifier.add(fix, startsSegment: startsSegment, into: &kept)
        takeKept()
    }

    private mutating func takeKept() {
        for point in kept {
            if point.startsSegment || route.isEmpty { route.append([]) }
            route[route.count - 1].append(layout.map.point(point.fix.coordinate))
        }
        kept.removeAll(keepingCapacity: true)
    }

    public mutating func finish() throws {
        simplifier.finish(into: &kept)
        takeKept()
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
        try MapPainter.regions(overview.regions, frame: map, on: &canvas)
        try MapPainter.route(route, on: &canvas)
        try MapPainter.markers(overview.events, start: start, end: end, frame: map, on: &canvas)
        try canvas.endGroup()
        if layout.kind == .picture {
            try canvas.rectangle(x: map.origin.x, y: map.origin.y, width: map.width, height: map.height)
            try canvas.paint(fill: nil, stroke: PictureStroke(PicturePalette.frame, width: 1))
            try MapDecorations.scaleBar(frame: map, on: &canvas)
            try MapDecorations.northArrow(frame: map, on: &canvas)
            try MapDecorations.legend(for: overview, frame: map, on: &canvas)
            if let area = layout.profile { try ProfilePainter.paint(profile, area: area, statistics: overview.statistics, on: &canvas) }
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
