import WaymarkCore

extension RegionIndex {
    /// Replaces `result` with the regions whose bounding box meets `box`, ascending: the
    /// candidates a segment inside `box` may pass through.
    public func regions(meeting box: BoundingBox, into result: inout [Int32]) {
        result.removeAll(keepingCapacity: true)
        let s = storage
        let top = s.levelCount.count - 1
        guard s.parts.count > 0 else { return }
        s.visit(level: top, node: 0, box: box, into: &result)
    }

    /// The stretches of the straight segment from `a` to `b` (linear in longitude/latitude,
    /// both within ±180°) that lie inside the region, as parameter ranges of `0…1` along it,
    /// ascending and disjoint. Polygons: the segment is cut at every edge it crosses and each
    /// piece is tested at its middle. Circles: the segment meets the circle in a plane tangent
    /// at the centre (good for segments of a few kilometres).
    public func insideStretches(ofRegionAt index: Int, from a: Coordinate, to b: Coordinate) -> [ClosedRange<Double>] {
        let s = storage
        var stretches: [ClosedRange<Double>] = []
        for j in Int(s.regionPartStart[index])..<Int(s.regionPartStart[index + 1]) {
            let part = Int(s.regionParts[j])
            stretches += s.parts[part].isCircle
                ? s.circleStretch(Int(s.parts[part].first), a, b).map { [$0] } ?? []
                : s.polygonStretches(part, a, b)
        }
        return merged(stretches)
    }

    private func merged(_ stretches: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        guard stretches.count > 1 else { return stretches }
        var result: [ClosedRange<Double>] = []
        for stretch in stretches.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, stretch.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, stretch.upperBound)
            } else {
                result.append(stretch)
            }
        }
        return result
    }
}

extension RegionIndex.Storage {
    func visit(level: Int, node: Int, box: BoundingBox, into result: inout [Int32]) {
        let child = level - 1
        let lo = node * RegionIndex.nodeCapacity
        let hi = min(lo + RegionIndex.nodeCapacity, child < 0 ? parts.count : levelCount[child])
        if level == 0 {
            if nodeBoxes[node].meets(box) { insertSorted(parts[node].region, into: &result) }
            return
        }
        let base = levelStart[child]
        for i in lo..<hi where nodeBoxes[base + i].meets(box) {
            visit(level: child, node: i, box: box, into: &result)
        }
    }

    func circleStretch(_ i: Int, _ a: Coordinate, _ b: Coordinate) -> ClosedRange<Double>? {
        let circle = circles[i]
        let scale = LocalMetres(latitude: circle.center.latitude)
        let ax = (a.longitude - circle.center.longitude) * scale.perDegreeLongitude
        let ay = (a.latitude - circle.center.latitude) * scale.perDegreeLatitude
        let dx = (b.longitude - a.longitude) * scale.perDegreeLongitude
        let dy = (b.latitude - a.latitude) * scale.perDegreeLatitude
        // |A + t D|² = r²
        let qa = dx * dx + dy * dy
        let qb = 2 * (ax * dx + ay * dy)
        let qc = ax * ax + ay * ay - circle.radius * circle.radius
        let discriminant = qb * qb - 4 * qa * qc
        guard qa > 0, discriminant > 0 else { return nil }
        let root = discriminant.squareRoot()
        let t0 = max((-qb - root) / (2 * qa), 0)
        let t1 = min((-qb + root) / (2 * qa), 1)
        return t0 < t1 ? t0...t1 : nil
    }

    func polygonStretches(_ part: Int, _ a: Coordinate, _ b: Coordinate) -> [ClosedRange<Double>] {
        let record = parts[part]
        var cuts: [Double] = [0, 1]
        let dx = b.longitude - a.longitude
        let dy = b.latitude - a.latitude
        for ring in Int(record.first)..<Int(record.first + record.ringCount) {
            let r = rings[ring]
            for e in Int(r.start)..<Int(r.start + r.edgeCount) {
                let p = vertices[e]
                let q = vertices[e + 1]
                let ex = q.x - p.x
                let ey = q.y - p.y
                let denominator = dx * ey - dy * ex
                if denominator == 0 { continue }
                let wx = p.x - a.longitude
                let wy = p.y - a.latitude
                let t = (wx * ey - wy * ex) / denominator
                let u = (wx * dy - wy * dx) / denominator
                if t > 0 && t < 1 && u >= 0 && u <= 1 { cuts.append(t) }
            }
        }
        cuts.sort()
        var stretches: [ClosedRange<Double>] = []
        for k in 0..<(cuts.count - 1) where cuts[k + 1] > cuts[k] {
            let middle = (cuts[k] + cuts[k + 1]) / 2
            var probe = PointProbe(x: a.longitude + middle * dx, y: a.latitude + middle * dy)
            guard nodeBoxes[part].contains(latitude: probe.y, longitude: probe.x), partContains(part, &probe) else { continue }
            if let last = stretches.last, last.upperBound == cuts[k] {
                stretches[stretches.count - 1] = last.lowerBound...cuts[k + 1]
            } else {
                stretches.append(cuts[k]...cuts[k + 1])
            }
        }
        return stretches
    }
}

extension BoundingBox {
    func meets(_ other: BoundingBox) -> Bool {
        minLatitude <= other.maxLatitude && other.minLatitude <= maxLatitude
            && minLongitude <= other.maxLongitude && other.minLongitude <= maxLongitude
    }
}
