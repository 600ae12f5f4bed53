/// Paints the elevation profile: altitude (m) against distance (km), a filled area under the
/// line, a grid at round altitudes, and a tick at the top for each region entry and exit.
enum ProfilePainter {
    static func paint(
        _ profile: ElevationProfile, area: (x: Double, y: Double, width: Double, height: Double),
        statistics: TrackStatistics, on canvas: inout some PictureCanvas
    ) throws {
        try canvas.beginGroup(id: "profile")
        try canvas.rectangle(x: area.x, y: area.y, width: area.width, height: area.height)
        try canvas.paint(fill: PicturePalette.white, stroke: PictureStroke(PicturePalette.frame, width: 1))
        let small = PictureTextStyle(size: 11, color: PicturePalette.secondaryInk)
        try canvas.text("Elevation (m)", at: PicturePoint(area.x + 8, area.y + 15), style: PictureTextStyle(size: 12, color: PicturePalette.ink, bold: true))
        let columns = profile.columns
        let values = columns.compactMap { $0 }
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
        // Altitude axis: round ticks, at least 20 m shown.
        let centre = (low + high) / 2
        let span = max(high - low, 20)
        let step = NiceNumber.step(span: span, count: 4)
        let bottom = ((centre - span / 2) / step).rounded(.down) * step
        let top = ((centre + span / 2) / step).rounded(.up) * step
        func y(_ altitude: Double) -> Double { plot.y + plot.height - (altitude - bottom) / (top - bottom) * plot.height }
        func x(_ fraction: Double) -> Double { plot.x + fraction * plot.width }
        var rightSmall = small
        rightSmall.anchor = .end
        var tick = bottom
        while tick <= top + step / 2 {
            try canvas.move(to: PicturePoint(plot.x, y(tick)))
            try canvas.line(to: PicturePoint(plot.x + plot.width, y(tick)))
            try canvas.paint(fill: nil, stroke: PictureStroke(PicturePalette.grid, width: 1))
            try canvas.text(Decimal7.format(tick, decimals: 0), at: PicturePoint(plot.x - 6, y(tick) + 4), style: rightSmall)
            tick += step
        }
        // The line through every filled column, and the area under it.
        let last = Double(max(1, columns.count - 1))
        let points = columns.enumerated().compactMap { index, value in value.map { PicturePoint(x(Double(index) / last), y($0)) } }
        try canvas.move(to: PicturePoint(points[0].x, plot.y + plot.height))
        for point in points { try canvas.line(to: point) }
        try canvas.line(to: PicturePoint(points[points.count - 1].x, plot.y + plot.height))
        try canvas.close()
        try canvas.paint(fill: PicturePalette.profileFill, stroke: nil)
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
        var distance = 0.0
        while distance <= total + 1e-9 {
            let tx = x(distance / total)
            try canvas.move(to: PicturePoint(tx, plot.y + plot.height))
            try canvas.line(to: PicturePoint(tx, plot.y + plot.height + 4))
            try canvas.paint(fill: nil, stroke: PictureStroke(PicturePalette.secondaryInk, width: 1))
            if tx < plot.x + plot.width - 28 {  // the unit's place at the right end
                try canvas.text(Decimal7.trimmed(distance / unit, decimals: 3), at: PicturePoint(tx, plot.y + plot.height + 16), style: centred)
            }
            distance += distanceStep
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
}
