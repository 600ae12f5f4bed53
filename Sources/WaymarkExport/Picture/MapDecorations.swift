/// The map's furniture: scale bar (bottom left), north arrow (top right), legend (bottom right).
enum MapDecorations {
    /// A bar of four alternating blocks whose length is a round distance (1, 2 or 5 × 10ⁿ m)
    /// of at most a fifth of the map's width, labelled at both ends.
    static func scaleBar(frame: MapFrame, on canvas: inout some PictureCanvas) throws {
        let metres = NiceNumber.atMost(frame.width / 5 * frame.metresPerPixel)
        let length = metres / frame.metresPerPixel
        let x = frame.origin.x + 16
        let y = frame.origin.y + frame.height - 22
        try canvas.beginGroup(id: "scale-bar", classes: nil, title: "\(label(metres)) at the map's centre")
        try canvas.rectangle(x: x - 8, y: y - 24, width: length + 16 + 30, height: 38)
        try canvas.paint(fill: PicturePalette.halo, stroke: nil)
        for block in 0..<4 {
            try canvas.rectangle(x: x + Double(block) * length / 4, y: y, width: length / 4, height: 6)
            try canvas.paint(fill: block % 2 == 0 ? PicturePalette.ink : PicturePalette.white, stroke: nil)
        }
        try canvas.rectangle(x: x, y: y, width: length, height: 6)
        try canvas.paint(fill: nil, stroke: PictureStroke(PicturePalette.ink, width: 1))
        let style = PictureTextStyle(size: 12, color: PicturePalette.ink, anchor: .middle)
        try canvas.text("0", at: PicturePoint(x, y - 6), style: style)
        try canvas.text(label(metres), at: PicturePoint(x + length, y - 6), style: style)
        try canvas.endGroup()
    }

    /// `500 m`, `2 km`.
    static func label(_ metres: Double) -> String {
        metres >= 1000 ? Decimal7.trimmed(metres / 1000, decimals: 3) + " km" : Decimal7.trimmed(metres, decimals: 3) + " m"
    }

    /// An arrow pointing up with an N above it: north is up on this projection.
    static func northArrow(frame: MapFrame, on canvas: inout some PictureCanvas) throws {
        let cx = frame.origin.x + frame.width - 30
        let top = frame.origin.y + 12
        try canvas.beginGroup(id: "north-arrow", classes: nil, title: "North")
        try canvas.rectangle(x: cx - 17, y: top, width: 34, height: 62)
        try canvas.paint(fill: PicturePalette.halo, stroke: PictureStroke(PicturePalette.frame, width: 1))
        try canvas.text("N", at: PicturePoint(cx, top + 19), style: PictureTextStyle(size: 15, color: PicturePalette.ink, anchor: .middle, bold: true))
        let tip = PicturePoint(cx, top + 24)
        let notch = PicturePoint(cx, top + 48)
        try canvas.polygon([tip, PicturePoint(cx - 9, top + 56), notch])
        try canvas.paint(fill: PicturePalette.ink, stroke: PictureStroke(PicturePalette.ink, width: 1))
        try canvas.polygon([tip, PicturePoint(cx + 9, top + 56), notch])
        try canvas.paint(fill: PicturePalette.white, stroke: PictureStroke(PicturePalette.ink, width: 1))
        try canvas.endGroup()
    }

    /// A key to the symbols that appear on this map, in one row whose text baseline is at
    /// `origin.y` (text widths estimated at 0.57 em a character: the canvas cannot measure).
    static func legend(for overview: TrackOverview, at origin: PicturePoint, on canvas: inout some PictureCanvas) throws {
        let kinds = Set(overview.events.map(\.kind))
        var items: [(String, TrackEvent.Kind?)] = [("Route", nil), ("Start", nil), ("End", nil)]
        if kinds.contains(.enter) { items.append(("Enter region", .enter)) }
        if kinds.contains(.exit) { items.append(("Exit region", .exit)) }
        if kinds.contains(.arrival) || kinds.contains(.departure) { items.append(("Visit", .arrival)) }
        if kinds.contains(.significantChange) { items.append(("Significant change", .significantChange)) }
        try canvas.beginGroup(id: "legend")
        var x = origin.x + 4
        let centreY = origin.y - 4
        for (label, kind) in items {
            let centre = PicturePoint(x + 12, centreY)
            switch (label, kind) {
            case (_, let kind?):
                try MapPainter.symbol(kind, at: centre, on: &canvas)
            case ("Route", nil):
                try canvas.move(to: PicturePoint(centre.x - 11, centre.y))
                try canvas.line(to: PicturePoint(centre.x + 11, centre.y))
                try canvas.paint(fill: nil, stroke: PictureStroke(PicturePalette.route, width: PicturePalette.routeWidth))
            default:
                try MapPainter.symbol(start: label == "Start", at: centre, label: false, on: &canvas)
            }
            try canvas.text(label, at: PicturePoint(x + 28, origin.y), style: PictureTextStyle(size: 12, color: PicturePalette.ink))
            x += 28 + Double(label.count) * 6.8 + 18
        }
        try canvas.endGroup()
    }
}
