import WaymarkCore

extension RegionIndex {
    /// Metres from `c` to the nearest boundary of the region at `index`, looking no further
    /// than `limit`: the exact distance when it is below `limit`, otherwise some value ≥ `limit`.
    ///
    /// Circles: |geodesic distance to the centre − radius|. Polygons: the distance to the
    /// nearest edge of any ring, in a plane tangent at `c` (edges are straight in
    /// longitude/latitude). Edges along the antimeridian (both ends at ±180°) are seams where a
    /// region was split, not boundaries, and are ignored. Rings with latitude bands are searched
    /// only in the bands within `limit` of `c`.
    public func distanceToBoundary(ofRegionAt index: Int, from c: Coordinate, limit: Double = .infinity) -> Double {
        let s = storage
        var best = limit
        for j in Int(s.regionPartStart[index])..<Int(s.regionPartStart[index + 1]) {
            let part = s.parts[Int(s.regionParts[j])]
            if part.isCircle {
                let circle = s.circles[Int(part.first)]
                best = min(best, abs(Geodesic.distance(circle.center, c) - circle.radius))
            } else {
                for ring in Int(part.first)..<Int(part.first + part.ringCount) {
                    best = min(best, s.distance(toRing: ring, from: c, limit: best))
                }
            }
        }
        return best
    }

    /// A length that tells how big the region is, in metres: the radius of a circle, and
    /// 2 × area ÷ perimeter of polygons (which is the radius for a disc, the inscribed radius
    /// for a square, and about the width of a long corridor). Hysteresis scales with it.
    public func characteristicSize(ofRegionAt index: Int) -> Double {
        let s = storage
        var area = 0.0
        var perimeter = 0.0
        for j in Int(s.regionPartStart[index])..<Int(s.regionPartStart[index + 1]) {
            let part = s.parts[Int(s.regionParts[j])]
            if part.isCircle { return s.circles[Int(part.first)].radius }
            for ring in Int(part.first)..<Int(part.first + part.ringCount) {
                let (a, p) = s.areaAndPerimeter(ofRing: ring)
                area += ring == Int(part.first) ? a : -a
                perimeter += p
            }
        }
        return perimeter > 0 ? 2 * max(area, 0) / perimeter : 0
    }
}

extension RegionIndex.Storage {
    func distance(toRing r: Int, from c: Coordinate, limit: Double) -> Double {
        let ring = rings[r]
        let scale = LocalMetres(latitude: c.latitude)
        let reachLatitude = limit.isFinite ? limit / scale.perDegreeLatitude : .infinity
        // Nothing of the ring is nearer than its box.
        if c.latitude < ring.box.minLatitude - reachLatitude || c.latitude > ring.box.maxLatitude + reachLatitude {
            return limit
        }
        var best = limit
        func measure(_ e: Int) {
            let a = vertices[e]
            let b = vertices[e &+ 1]
            if abs(a.x) == 180 && a.x == b.x { return }
            // Longitudes the short way round, so a part just across the antimeridian is near.
            let d = planarDistance(
                0, 0, Coordinate.degreesEast(from: c.longitude, to: a.x) * scale.perDegreeLongitude,
                (a.y - c.latitude) * scale.perDegreeLatitude,
                Coordinate.degreesEast(from: c.longitude, to: b.x) * scale.perDegreeLongitude,
                (b.y - c.latitude) * scale.perDegreeLatitude)
            if d < best { best = d }
        }
        if ring.bandCount == 0 || !reachLatitude.isFinite {
            for e in Int(ring.start)..<Int(ring.start + ring.edgeCount) { measure(e) }
            return best
        }
        let low = bandIndex(c.latitude - reachLatitude, minY: ring.box.minLatitude, scale: ring.bandScale, count: ring.bandCount)
        let high = bandIndex(c.latitude + reachLatitude, minY: ring.box.minLatitude, scale: ring.bandScale, count: ring.bandCount)
        for k in (Int(ring.bandOffset) + low)...(Int(ring.bandOffset) + high) {
            for j in Int(bandStarts[k])..<Int(bandStarts[k + 1]) { measure(Int(bandEdges[j])) }
        }
        return best
    }

    /// Area (m², unsigned) and perimeter (m) of a ring, in a plane tangent at its box's centre.
    func areaAndPerimeter(ofRing r: Int) -> (Double, Double) {
        let ring = rings[r]
        let scale = LocalMetres(latitude: ring.box.centerLatitude)
        var twiceArea = 0.0
        var perimeter = 0.0
        for e in Int(ring.start)..<Int(ring.start + ring.edgeCount) {
            let ax = vertices[e].x * scale.perDegreeLongitude
            let ay = vertices[e].y * scale.perDegreeLatitude
            let bx = vertices[e + 1].x * scale.perDegreeLongitude
            let by = vertices[e + 1].y * scale.perDegreeLatitude
            twiceArea += ax * by - bx * ay
            perimeter += ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
        }
        return (abs(twiceArea) / 2, perimeter)
    }
}

extension RegionIndex {
    /// Metres from `c` to the nearest boundary of any region, or `limit` when none is nearer:
    /// regions are searched in boxes around `c` growing fourfold from 100 m, each candidate
    /// measured exactly (`distanceToBoundary`), until the nearest found is within the box.
    public func distanceToNearestBoundary(from c: Coordinate, limit: Double) -> Double {
        var candidates: [Int32] = []
        var reach = min(100.0, limit)
        while true {
            regions(near: c, within: reach, into: &candidates)
            var nearest = reach
            for region in candidates {
                nearest = min(nearest, distanceToBoundary(ofRegionAt: Int(region), from: c, limit: nearest))
            }
            if nearest < reach || reach >= limit { return min(nearest, limit) }
            reach = min(reach * 4, limit)
        }
    }

    /// Replaces `result` with the regions whose bounding box meets the box `metres` around `c`,
    /// ascending; a box over the antimeridian continues on the other side.
    public func regions(near c: Coordinate, within metres: Double, into result: inout [Int32]) {
        let scale = LocalMetres(latitude: c.latitude)
        let dLat = metres / scale.perDegreeLatitude
        let dLon = scale.perDegreeLongitude > 0 ? min(metres / scale.perDegreeLongitude, 180) : 180
        let (south, north) = (max(c.latitude - dLat, -90), min(c.latitude + dLat, 90))
        func box(_ west: Double, _ east: Double) -> BoundingBox {
            BoundingBox(minLatitude: south, minLongitude: west, maxLatitude: north, maxLongitude: east)
        }
        regions(meeting: box(max(c.longitude - dLon, -180), min(c.longitude + dLon, 180)), into: &result)
        var beyond: [Int32] = []
        if c.longitude - dLon < -180 { regions(meeting: box(c.longitude - dLon + 360, 180), into: &beyond) }
        if c.longitude + dLon > 180 { regions(meeting: box(-180, c.longitude + dLon - 360), into: &beyond) }
        guard !beyond.isEmpty else { return }
        result = Array(Set(result + beyond)).sorted()
    }
}
