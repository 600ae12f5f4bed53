import WaymarkCore
import WaymarkRegions

/// Paints the map's content: regions, the route, and the markers.
enum MapPainter {
    static func regions(_ regions: [Region], frame: MapFrame, on canvas: inout some PictureCanvas) throws {
        try canvas.beginGroup(id: "regions")
        let view = frame.bounds
        for (index, region) in regions.enumerated() {
            let polygons = RegionOutline.polygons(of: region)
            guard let bounds = box(polygons.flatMap { $0.first ?? [] }, in: frame), overlaps(bounds, view) else { continue }
            let colour = PicturePalette.region(index)
            try canvas.beginGroup(id: nil, classes: "region", title: region.identifier)
            for polygon in polygons {
                for ring in polygon { try canvas.polygon(ring.map(frame.point)) }
            }
            try paintRegion(colour, on: &canvas)
            try canvas.endGroup()
        }
        try canvas.endGroup()
    }

    /// Labels each region's parts at the top of the part of its box in view (above it when the
    /// part is small, so markers on its edge do not hide the label). Drawn over the route.
    static func labels(_ regions: [Region], frame: MapFrame, on canvas: inout some PictureCanvas) throws {
        try canvas.beginGroup(id: "region-labels")
        let view = frame.bounds
        for (index, region) in regions.enumerated() {
            for polygon in RegionOutline.polygons(of: region) {
                guard let part = polygon.first.flatMap({ box($0, in: frame) }), overlaps(part, view) else { continue }
                let west = max(part.minLongitude, view.minLongitude)
                let east = min(part.maxLongitude, view.maxLongitude)
                let top = frame.point(Coordinate(latitude: min(part.maxLatitude, view.maxLatitude), longitude: (west + east) / 2))
                let bottom = frame.point(Coordinate(latitude: max(part.minLatitude, view.minLatitude), longitude: (west + east) / 2))
                let small = bottom.y - top.y < 120 && top.y > frame.origin.y + 20
                try canvas.text(
                    region.identifier, at: PicturePoint(top.x, small ? top.y - 6 : top.y + 15),
                    style: PictureTextStyle(size: 12, color: PicturePalette.region(index), anchor: .middle, bold: true, halo: PicturePalette.halo))
            }
        }
        try canvas.endGroup()
    }

    /// Fills and outlines the region path just drawn, translucent in its colour.
    static func paintRegion(_ colour: PictureColor, on canvas: inout some PictureCanvas) throws {
        try canvas.paint(fill: colour.with(alpha: 0.22), stroke: PictureStroke(colour, width: 1.5))
    }

    /// One stretch of the route: its white casing, then the red line (a single point: a dot).
    static func route(_ points: [PicturePoint], on canvas: inout some PictureCanvas) throws {
        guard points.count > 1 else {
            try canvas.circle(center: points[0], radius: 2.5)
            try canvas.paint(fill: PicturePalette.route, stroke: nil)
            return
        }
        for (colour, width) in [(PicturePalette.white, 7.0), (PicturePalette.route, PicturePalette.routeWidth)] {
            try canvas.move(to: points[0])
            for point in points.dropFirst() { try canvas.line(to: point) }
            try canvas.paint(fill: nil, stroke: PictureStroke(colour, width: width))
        }
    }

    static func markers(
        _ events: [TrackEvent], start: Coordinate?, end: Coordinate?, frame: MapFrame, on canvas: inout some PictureCanvas
    ) throws {
        try canvas.beginGroup(id: "markers")
        // Least important first, so enter/exit and start/end stay on top.
        let order: [TrackEvent.Kind] = [.other, .significantChange, .arrival, .departure, .enter, .exit]
        for kind in order {
            for event in events where event.kind == kind {
                try canvas.beginGroup(id: nil, classes: "marker \(event.type)", title: title(event))
                try symbol(kind, at: frame.point(event.coordinate), on: &canvas)
                try canvas.endGroup()
            }
        }
        if let start {
            try canvas.beginGroup(id: nil, classes: "marker start", title: "Start")
            try symbol(start: true, at: frame.point(start), label: true, on: &canvas)
            try canvas.endGroup()
        }
        if let end {
            try canvas.beginGroup(id: nil, classes: "marker end", title: "End")
            try symbol(start: false, at: frame.point(end), label: true, on: &canvas)
            try canvas.endGroup()
        }
        try canvas.endGroup()
    }

    /// The symbol of an event kind centred on `point` (also used by the legend and a KMZ's icons).
    static func symbol(_ kind: TrackEvent.Kind, at point: PicturePoint, on canvas: inout some PictureCanvas) throws {
        let outline = PictureStroke(PicturePalette.white, width: 1.5)
        switch kind {
        case .enter:
            try canvas.polygon([PicturePoint(point.x, point.y - 8), PicturePoint(point.x + 7, point.y + 5), PicturePoint(point.x - 7, point.y + 5)])
            try canvas.paint(fill: PicturePalette.marker(kind), stroke: outline)
        case .exit:
            try canvas.polygon([PicturePoint(point.x, point.y + 8), PicturePoint(point.x - 7, point.y - 5), PicturePoint(point.x + 7, point.y - 5)])
            try canvas.paint(fill: PicturePalette.marker(kind), stroke: outline)
        case .arrival, .departure:
            try canvas.polygon([PicturePoint(point.x, point.y - 7), PicturePoint(point.x + 7, point.y), PicturePoint(point.x, point.y + 7), PicturePoint(point.x - 7, point.y)])
            try canvas.paint(fill: PicturePalette.marker(kind), stroke: outline)
        case .significantChange, .other:
            try canvas.circle(center: point, radius: 3.5)
            try canvas.paint(fill: PicturePalette.marker(kind), stroke: PictureStroke(PicturePalette.white, width: 1.2))
        }
    }

    /// Start (a green disc) or end (a black square), optionally labelled.
    static func symbol(start: Bool, at point: PicturePoint, label: Bool, on canvas: inout some PictureCanvas) throws {
        let outline = PictureStroke(PicturePalette.white, width: 2.5)
        if start {
            // Larger than the end's square, so on a loop the start shows as a ring around it.
            try canvas.circle(center: point, radius: 10)
            try canvas.paint(fill: PicturePalette.start, stroke: outline)
        } else {
            try canvas.rectangle(x: point.x - 5, y: point.y - 5, width: 10, height: 10)
            try canvas.paint(fill: PicturePalette.end, stroke: outline)
        }
        guard label else { return }
        // Start labelled on the right, end on the left, so a loop's two labels do not collide.
        try canvas.text(
            start ? "Start" : "End", at: PicturePoint(point.x + (start ? 14 : -14), point.y + 5),
            style: PictureTextStyle(size: 13, color: PicturePalette.ink, anchor: start ? .start : .end, bold: true, halo: PicturePalette.halo))
    }

    static func title(_ event: TrackEvent) -> String {
        event.name + (event.time.map { ", " + $0.rfc3339 } ?? "")
    }

    /// The box around `ring` in the frame's longitudes (`MapFrame.unwrapped`), so a region
    /// beside a map over the antimeridian is found where it is drawn.
    static func box(_ ring: [Coordinate], in frame: MapFrame) -> BoundingBox? {
        let ring = ring.map { Coordinate(latitude: $0.latitude, longitude: frame.unwrapped($0.longitude)) }
        guard let first = ring.first else { return nil }
        return ring.reduce(into: BoundingBox(first)) { $0.formUnion($1) }
    }

    static func overlaps(_ a: BoundingBox, _ b: BoundingBox) -> Bool {
        a.minLongitude <= b.maxLongitude && b.minLongitude <= a.maxLongitude && a.minLatitude <= b.maxLatitude && b.minLatitude <= a.maxLatitude
    }
}
