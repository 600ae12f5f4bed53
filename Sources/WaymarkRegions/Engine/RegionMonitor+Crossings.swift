import WaymarkCore

extension RegionMonitor {
    /// Whether the straight path from `previous` to `fix` may have crossed regions unseen: the
    /// fixes are sparse (far apart in time and space) and the path is plausible (a silence no
    /// longer than `maximumCrossingGap`, a speed within `maximumCrossingSpeed`).
    func mayHaveCrossed(from previous: (time: Timestamp?, coordinate: Coordinate), to fix: Fix) -> Bool {
        guard let start = previous.time, let end = fix.time else { return false }
        let seconds = end.seconds(since: start)
        guard seconds >= configuration.sparseInterval, seconds <= configuration.maximumCrossingGap else { return false }
        let metres = Geodesic.distance(previous.coordinate, fix.coordinate)
        return metres >= configuration.sparseDistance && metres <= configuration.maximumCrossingSpeed * seconds
    }

    /// Reports regions the straight segment between two sparse fixes passes through as
    /// entered and exited (`crossed`). The segment is linear in longitude/latitude, the short
    /// way round; across the antimeridian it is cut there into two pieces.
    mutating func addCrossings(
        from previous: (time: Timestamp?, coordinate: Coordinate), to fix: Fix, _ update: inout RegionUpdate
    ) {
        let a = previous.coordinate
        let b = fix.coordinate
        guard let seam = AntimeridianCrossing(from: a, to: b) else {
            addCrossings(along: (a, b), span: 0...1, previous.time, fix, &update)
            return
        }
        addCrossings(along: (a, seam.leaving), span: 0...seam.fraction, previous.time, fix, &update)
        addCrossings(along: (seam.entering, b), span: seam.fraction...1, previous.time, fix, &update)
    }

    private mutating func addCrossings(
        along segment: (Coordinate, Coordinate), span: ClosedRange<Double>, _ start: Timestamp?, _ fix: Fix,
        _ update: inout RegionUpdate
    ) {
        let (a, b) = segment
        let box = BoundingBox(
            minLatitude: min(a.latitude, b.latitude), minLongitude: min(a.longitude, b.longitude),
            maxLatitude: max(a.latitude, b.latitude), maxLongitude: max(a.longitude, b.longitude))
        index.regions(meeting: box, into: &candidates)
        for region in candidates where isQuietlyOutside(region, since: start) {
            for stretch in index.insideStretches(ofRegionAt: Int(region), from: a, to: b) {
                let middle = point(a, b, (stretch.lowerBound + stretch.upperBound) / 2)
                let depth = margin[Int(region)]
                guard index.distanceToBoundary(ofRegionAt: Int(region), from: middle, limit: depth) >= depth else { continue }
                for (kind, t) in [(RegionTransition.Kind.enter, stretch.lowerBound), (.exit, stretch.upperBound)] {
                    let global = span.lowerBound + t * (span.upperBound - span.lowerBound)
                    let time = start.flatMap { s in fix.time.map { s.adding(seconds: global * $0.seconds(since: s)) } }
                    let at = Fix(time: time, coordinate: point(a, b, t))
                    update.transitions.append(transition(kind, region, at: at, confirmedAt: fix.time, crossed: true))
                }
            }
        }
    }

    /// Confirmed outside since the first fix at latest, neither fix inside, nothing pending:
    /// only then can a pass be unseen. A state that began between the fixes came from the
    /// phone's own report of that very pass (`apply(reported:)`): it is not inferred again.
    private func isQuietlyOutside(_ region: Int32, since start: Timestamp?) -> Bool {
        !isUnknown(region) && !contains(inside, region) && !contains(raw, region)
            && !contains(rawPrevious, region) && !pending.contains { $0.region == region }
            && sinceMark(region) <= (start?.nanosecondsSince1970 ?? Int64.max)
    }

    private func point(_ a: Coordinate, _ b: Coordinate, _ t: Double) -> Coordinate {
        Coordinate(latitude: a.latitude + t * (b.latitude - a.latitude), longitude: a.longitude + t * (b.longitude - a.longitude))
    }
}
