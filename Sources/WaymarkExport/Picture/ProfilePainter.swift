/// Paints the elevation profile: altitude (m) against distance (km), a filled area under the
/// line, a grid at round altitudes, the stretches spent inside each region shaded in the
/// region's map colour and named, and a tick at the top for each region entry and exit.
enum ProfilePainter {
    static func paint(
        _ profile: ElevationProfile, area: (x: Double, y: Double, width: Double, height: Double),
        overview: TrackOverview, on canvas: inout some PictureCanvas
    ) throws {
        let statistics = overview.statistics
        try canvas.beginGroup(id: "profile")
        try canvas.rectangle(x: area.x, y: area.y, width: area.width, height: area.height)
        try canvas.paint(fill: PicturePalette.white, stroke: PictureStroke(PicturePalette.frame, width: 1))
        let small = PictureTextStyle(size: 11, color: PicturePalette.secondaryInk)
        try canvas.text("Elevation (m)", at: PicturePoint(area.x + 8, area.y + 15), style: PictureTextStyle(size: 12, color: PicturePalette.ink, bold: true))
        let columns = profile.columns
        let values = columns.compactMap { $0 }.filter(\.isFinite)
        guard let low = values.min(), let high = values.max() else {
            try canvas.text(
                "No elevation recorded on this track", at: PicturePoint(area.x + area.width / 2, area.y + area.height / 2),
                style: PictureTextStyle(size: 13, color: PicturePalette.secondaryInk, anchor: .middle))
            try canvas.endGroup()
            return
        }
        if let gain = statistics.elevationGain, let loss = statistics.elevationLoss {
            var right = small
            right.anchor = .end
            try canvas.text(
                "climb +\(Decimal7.format(gain, decimals: 0)) m, descent -\(Decimal7.format(loss, decimals: 0)) m",
                at: PicturePoint(area.x + area.width - 10, area.y + 15), style: right)
        }
        let plot = (x: area.x + 52, y: area.y + 24, width: area.width - 62, height: area.height - 46)
        // Altitude axis: round ticks, at least 20 m shown (flat when the values allow no axis).
        let axis = AxisTicks(low: low, high: high, minimumSpan: 20, count: 4)
        func y(_ altitude: Double) -> Double { plot.y + plot.height - axis.fraction(altitude) * plot.height }
        func x(_ fraction: Double) -> Double { plot.x + fraction * plot.width }
        var rightSmall = small
        rightSmall.anchor = .end
        for tick in axis.values {
            try canvas.move(to: PicturePoint(plot.x, y(tick)))
            try canvas.line(to: PicturePoint(plot.x + plot.width, y(tick)))
            try canvas.paint(fill: nil, stroke: PictureStroke(PicturePalette.grid, width: 1))
            try canvas.text(Decimal7.format(tick, decimals: 0), at: PicturePoint(plot.x - 6, y(tick) + 4), style: rightSmall)
        }
        // The line through every filled column, and the area under it.
        let last = Double(max(1, columns.count - 1))
        let points = columns.enumerated().compactMap { index, value in
            value.flatMap { $0.isFinite ? PicturePoint(x(Double(index) / last), y($0)) : nil }
        }
        try canvas.move(to: PicturePoint(points[0].x, plot.y + plot.height))
        for point in points { try canvas.line(to: point) }
        try canvas.line(to: PicturePoint(points[points.count - 1].x, plot.y + plot.height))
        try canvas.close()
        try canvas.paint(fill: PicturePalette.profileFill, stroke: nil)
        try stretches(profile, overview: overview, plot: plot, on: &canvas)
        try canvas.move(to: points[0])
        for point in points.dropFirst() { try canvas.line(to: point) }
        try canvas.paint(fill: nil, stroke: PictureStroke(PicturePalette.profileLine, width: 1.5))
        // Distance axis.
        let total = max(profile.totalDistance, 1)
        let kilometres = total >= 2000
        let unit = kilometres ? 1000.0 : 1.0
        let distanceStep = NiceNumber.step(span: total / unit, count: 8) * unit
        var centred = small
        centred.anchor = .middle
        for distance in AxisTicks(from: 0, to: total, step: distanceStep).values {
            let tx = x(distance / total)
            try canvas.move(to: PicturePoint(tx, plot.y + plot.height))
            try canvas.line(to: PicturePoint(tx, plot.y + plot.height + 4))
            try canvas.paint(fill: nil, stroke: PictureStroke(PicturePalette.secondaryInk, width: 1))
            if tx < plot.x + plot.width - 28 {  // the unit's place at the right end
                try canvas.text(Decimal7.trimmed(distance / unit, decimals: 3), at: PicturePoint(tx, plot.y + plot.height + 16), style: centred)
            }
        }
        try canvas.text(kilometres ? "km" : "m", at: PicturePoint(plot.x + plot.width, plot.y + plot.height + 16), style: rightSmall)
        // Region entries and exits along the way.
        for (event, at) in profile.eventDistances where event.kind == .enter || event.kind == .exit {
            let tx = x(min(1, at / total))
            try canvas.beginGroup(id: nil, classes: "profile-marker \(event.type)", title: MapPainter.title(event))
            try canvas.move(to: PicturePoint(tx, plot.y))
            try canvas.line(to: PicturePoint(tx, plot.y + plot.height))
            let colour = event.kind == .enter ? PicturePalette.enter : PicturePalette.exit
            try canvas.paint(fill: nil, stroke: PictureStroke(colour.with(alpha: 0.5), width: 1, dash: [3, 3]))
            try MapPainter.symbol(event.kind, at: PicturePoint(tx, plot.y + 2), on: &canvas)
            try canvas.endGroup()
        }
        try canvas.endGroup()
    }

    /// Each stretch inside a region, a band in the region's colour (as the map draws it) across
    /// the plot over the profile's area, named at its foot where the name fits: in the first of
    /// two rows where it overlaps no other name (overlapping stretches are common: a forest
    /// inside a reserve).
    private static func stretches(
        _ profile: ElevationProfile, overview: TrackOverview, plot: (x: Double, y: Double, width: Double, height: Double),
        on canvas: inout some PictureCanvas
    ) throws {
        let total = max(profile.totalDistance, 1)
        let colours = Dictionary(overview.regions.enumerated().map { ($1.identifier, PicturePalette.region($0)) }) { first, _ in first }
        let stretches = RegionStretch.stretches(
            of: profile.eventDistances, initialRegions: overview.initialRegions, totalDistance: profile.totalDistance)
        guard !stretches.isEmpty else { return }
        try canvas.beginGroup(id: "profile-regions")
        var rowsEnd = [-Double.infinity, -Double.infinity]
        for stretch in stretches {
            let colour = colours[stretch.region] ?? PicturePalette.region(0)
            let left = plot.x + min(1, stretch.from / total) * plot.width
            let width = max(1, min(1, stretch.to / total) * plot.width + plot.x - left)
            let title = "Inside \(stretch.region) from \(Self.distance(stretch.from)) to \(Self.distance(stretch.to))"
            try canvas.beginGroup(id: nil, classes: "profile-region", title: title)
            try canvas.rectangle(x: left, y: plot.y, width: width, height: plot.height)
            try canvas.paint(fill: colour.with(alpha: 0.25), stroke: nil)
            let label = Double(stretch.region.count) * 6.5
            let (start, end) = (left + width / 2 - label / 2, left + width / 2 + label / 2)
            if width >= label + 8, let row = rowsEnd.firstIndex(where: { $0 < start - 4 }) {
                rowsEnd[row] = end
                try canvas.text(
                    stretch.region, at: PicturePoint(left + width / 2, plot.y + plot.height - 6 - Double(row) * 13),
                    style: PictureTextStyle(size: 10, color: PicturePalette.ink, anchor: .middle, bold: true, halo: PicturePalette.halo))
            }
            try canvas.endGroup()
        }
        try canvas.endGroup()
    }

    private static func distance(_ metres: Double) -> String {
        metres >= 2000 ? Decimal7.format(metres / 1000, decimals: 2) + " km" : Decimal7.format(metres, decimals: 0) + " m"
    }
}
