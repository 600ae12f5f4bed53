#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WaymarkCore

extension RegionIndex {
    /// Compiles regions into flat arrays: vertices, rings with their bands, circles, parts.
    struct Builder {
        let bandingThreshold: Int
        var vertices = ContiguousArray<Vertex>()
        var rings = ContiguousArray<RingRecord>()
        var bandStarts = ContiguousArray<Int32>()
        var bandEdges = ContiguousArray<Int32>()
        var circles = ContiguousArray<CircleRecord>()
        var parts = ContiguousArray<PartRecord>()
        var partBoxes = ContiguousArray<BoundingBox>()

        init(bandingThreshold: Int) { self.bandingThreshold = bandingThreshold }

        /// Reserves what `regions` need (bands aside), so the arrays do not grow by doubling to
        /// up to twice their size while the index is built.
        mutating func reserve(for regions: [Region]) {
            var vertexCount = 0
            var ringCount = 0
            var partCount = 0
            var circleCount = 0
            for region in regions {
                switch region.shape {
                case .circle:
                    partCount += 1
                    circleCount += 1
                case .polygons(let polygons):
                    for polygon in polygons {
                        partCount += 1
                        for ring in [polygon.exterior] + polygon.holes {
                            ringCount += 1
                            vertexCount += ring.count + 1
                        }
                    }
                case .beacon:
                    break
                }
            }
            vertices.reserveCapacity(vertexCount)
            rings.reserveCapacity(ringCount)
            parts.reserveCapacity(partCount)
            partBoxes.reserveCapacity(partCount)
            circles.reserveCapacity(circleCount)
        }

        mutating func add(_ region: Region, index: Int32) {
            switch region.shape {
            case .circle(let center, let radius):
                parts.append(PartRecord(region: index, first: Int32(circles.count), ringCount: 0, isCircle: true))
                partBoxes.append(circleBox(center: center, radius: radius))
                circles.append(circleRecord(center: center, radius: radius))
            case .polygons(let polygons):
                for polygon in polygons where polygon.exterior.count >= 2 {
                    let first = rings.count
                    addRing(polygon.exterior)
                    for hole in polygon.holes where hole.count >= 2 { addRing(hole) }
                    let ringCount = rings.count - first
                    var part = PartRecord(
                        region: index, first: Int32(first), ringCount: Int32(ringCount), isCircle: false)
                    if ringCount == 1 { setCore(of: &part, ring: first) }
                    parts.append(part)
                    partBoxes.append(rings[first].box)
                }
            case .beacon:
                // No geometry: a beacon region contains no point (BeaconMonitor watches it).
                break
            }
        }

        /// A disc wholly inside ring `r`, centred on the ring's box centre (or, if that is not
        /// strictly inside, its vertices' mean), with longitudes scaled by the cosine of the
        /// latitude so that a round region is round: no edge comes nearer the centre than `d`
        /// in that plane, so the open disc of radius `d` meets no edge and lies inside. Any
        /// positive scale would be as sound (a linear map of the plane the polygon test works
        /// in); this one makes the disc fill a round region at every latitude. Shrunk a little
        /// against rounding. None when neither centre is strictly inside.
        private func setCore(of part: inout PartRecord, ring r: Int) {
            let ring = rings[r]
            let first = Int(ring.start)
            let end = first + Int(ring.edgeCount)
            var mean = Vertex(x: 0, y: 0)
            for k in first..<end {
                mean.x += vertices[k].x / Double(ring.edgeCount)
                mean.y += vertices[k].y / Double(ring.edgeCount)
            }
            let box = ring.box
            let scale = max(cos(box.centerLatitude * .pi / 180), 0.01)
            func scaled(_ v: Vertex) -> Vertex { Vertex(x: v.x * scale, y: v.y) }
            for centre in [Vertex(x: box.centerLongitude, y: box.centerLatitude), mean] {
                var inside = false
                var onEdge = false
                var nearest = Double.infinity
                for k in first..<end {
                    let a = vertices[k]
                    let b = vertices[k + 1]
                    onEdge = onEdge || crossEdge(a, b, centre.x, centre.y, &inside)
                    nearest = min(nearest, planarDistance(from: scaled(centre), toSegment: scaled(a), scaled(b)))
                }
                guard inside, !onEdge, nearest > 0, nearest.isFinite else { continue }
                let radius = nearest * (1 - 1e-9)
                part.coreX = centre.x
                part.coreY = centre.y
                part.coreScale = scale
                part.coreRadius2 = radius * radius
                return
            }
        }

        private mutating func addRing(_ ring: [Coordinate]) {
            let start = vertices.count
            var box = BoundingBox.empty
            for c in ring {
                vertices.append(Vertex(x: c.longitude, y: c.latitude))
                box.formUnion(c)
            }
            // Close the ring if the input did not (the GeoJSON reader requires it; synthetic
            // and hand-built regions may not).
            if ring.first != ring.last, let first = ring.first {
                vertices.append(Vertex(x: first.longitude, y: first.latitude))
            }
            let edgeCount = vertices.count - start - 1
            var record = RingRecord(
                start: Int32(start), edgeCount: Int32(edgeCount), bandOffset: -1, bandCount: 0, box: box,
                bandScale: 0)
            let height = box.maxLatitude - box.minLatitude
            if edgeCount > bandingThreshold && height > 0 {
                let bandCount = min(max(edgeCount / 4, 2), 4096)
                let scale = Double(bandCount) / height
                var lists = [[Int32]](repeating: [], count: bandCount)
                for e in start..<(start + edgeCount) {
                    let a = vertices[e].y
                    let b = vertices[e + 1].y
                    let lo = bandIndex(min(a, b), minY: box.minLatitude, scale: scale, count: Int32(bandCount))
                    let hi = bandIndex(max(a, b), minY: box.minLatitude, scale: scale, count: Int32(bandCount))
                    for k in lo...hi { lists[k].append(Int32(e)) }
                }
                record.bandOffset = Int32(bandStarts.count)
                record.bandCount = Int32(bandCount)
                record.bandScale = scale
                for list in lists {
                    bandStarts.append(Int32(bandEdges.count))
                    bandEdges.append(contentsOf: list)
                }
                bandStarts.append(Int32(bandEdges.count))
            }
            rings.append(record)
        }
    }
}

/// The spherical estimate's stated error bound (0.56 %, `Geodesic.sphericalDistance`) plus a
/// margin for rounding: only points within this fraction of the radius from the boundary get
/// the exact geodesic test.
let sphericalMargin = 0.006

func circleRecord(center: Coordinate, radius: Double) -> CircleRecord {
    let lat = center.latitude * (Double.pi / 180)
    let lon = center.longitude * (Double.pi / 180)
    // Squared chord on the unit sphere for a great-circle distance d: (2 sin(d / 2R))².
    func chord2(_ d: Double) -> Double {
        let angle = min(d / Geodesic.meanRadius, Double.pi)
        let s = 2 * sin(angle / 2)
        return s * s
    }
    let outside = radius * (1 + sphericalMargin)
    return CircleRecord(
        center: center, radius: radius,
        ux: cos(lat) * cos(lon), uy: cos(lat) * sin(lon), uz: sin(lat),
        insideChord2: chord2(radius * (1 - sphericalMargin)),
        // A circle reaching half way round the sphere contains everything the estimate can reach.
        outsideChord2: outside / Geodesic.meanRadius >= Double.pi ? .infinity : chord2(outside))
}

/// A box certain to hold the geodesic circle: angular extents from a sphere of the smallest
/// meridional radius of curvature of WGS84 (6,335,439 m, at the equator), 1 % wider, and the
/// full longitude range when the circle reaches a pole or crosses the antimeridian.
func circleBox(center: Coordinate, radius: Double) -> BoundingBox {
    let minimumRadius = 6_335_439.0
    let angle = radius / minimumRadius * 1.01
    let dLat = angle * 180 / Double.pi
    let minLat = center.latitude - dLat
    let maxLat = center.latitude + dLat
    if minLat <= -90 || maxLat >= 90 || angle >= Double.pi / 2 {
        return BoundingBox(
            minLatitude: max(minLat, -90), minLongitude: -180, maxLatitude: min(maxLat, 90), maxLongitude: 180)
    }
    let highest = max(abs(minLat), abs(maxLat)) * Double.pi / 180
    let ratio = sin(angle) / cos(highest)
    let dLon = ratio >= 1 ? 360 : asin(ratio) * 180 / Double.pi
    let minLon = center.longitude - dLon
    let maxLon = center.longitude + dLon
    if minLon < -180 || maxLon > 180 {
        return BoundingBox(minLatitude: minLat, minLongitude: -180, maxLatitude: maxLat, maxLongitude: 180)
    }
    return BoundingBox(minLatitude: minLat, minLongitude: minLon, maxLatitude: maxLat, maxLongitude: maxLon)
}

/// Euclidean distance from `p` to the segment `a`–`b`, in the plane of the coordinates.
func planarDistance(from p: Vertex, toSegment a: Vertex, _ b: Vertex) -> Double {
    let dx = b.x - a.x
    let dy = b.y - a.y
    let length2 = dx * dx + dy * dy
    var t = length2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2 : 0
    t = min(1, max(0, t))
    let ex = a.x + t * dx - p.x
    let ey = a.y + t * dy - p.y
    return (ex * ex + ey * ey).squareRoot()
}
