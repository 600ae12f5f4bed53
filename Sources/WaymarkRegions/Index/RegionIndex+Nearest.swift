#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WaymarkCore

extension RegionIndex {
    /// One region and how far it is from a point.
    public struct Neighbour: Sendable, Equatable {
        /// The region's position in the index.
        public var index: Int
        /// Metres to the region: 0 inside it (boundary included), otherwise the distance to its
        /// nearest boundary (`distanceToBoundary`).
        public var distance: Double

        public init(index: Int, distance: Double) {
            self.index = index
            self.distance = distance
        }
    }

    /// Metres from `c` to the region at `index`: 0 when `c` is inside (a point in a hole is
    /// outside, measured to the hole's edge), otherwise the distance to its nearest boundary,
    /// looking no further than `limit`. Beacon regions, which have no position, are `limit` away.
    public func distance(toRegionAt index: Int, from c: Coordinate, limit: Double = .infinity) -> Double {
        contains(regionAt: index, c) ? 0 : distanceToBoundary(ofRegionAt: index, from: c, limit: limit)
    }

    /// The `count` regions nearest to `c` by `distance(toRegionAt:from:)`, nearest first (ties
    /// by identifier, so the answer does not depend on the order the regions came in); fewer
    /// when the index holds fewer geographic regions. Beacon regions are never among them.
    ///
    /// Searched in boxes around `c` growing fourfold from 500 m: every region with a point
    /// within the box's reach has a bounding box meeting it (`searchBox`), so once `count`
    /// candidates are nearer than the reach, no region outside the box can be nearer than they.
    public func nearest(_ count: Int, to c: Coordinate) -> [Neighbour] {
        guard count > 0, storage.parts.count > 0 else { return [] }
        var reach = 500.0
        var candidates: [Int32] = []
        var measured: [Int32: Double] = [:]
        while true {
            let everywhere = reach >= Self.halfCircumference
            Self.forEachBox(around: c, metres: reach) { box in
                var found: [Int32] = []
                regions(meeting: box, into: &found)
                candidates.append(contentsOf: found)
            }
            var within: [Neighbour] = []
            for region in Set(candidates) {
                // A distance found below an earlier, smaller reach is exact; others are remeasured.
                let distance = measured[region].flatMap { $0 < reach / 4 ? $0 : nil }
                    ?? self.distance(toRegionAt: Int(region), from: c, limit: everywhere ? .infinity : reach)
                measured[region] = distance
                if distance < reach || everywhere { within.append(Neighbour(index: Int(region), distance: distance)) }
            }
            candidates.removeAll(keepingCapacity: true)
            if within.count >= count || everywhere {
                within.sort { ($0.distance, identifierRank(at: $0.index)) < ($1.distance, identifierRank(at: $1.index)) }
                return Array(within.prefix(count).filter { $0.distance.isFinite })
            }
            reach *= 4
        }
    }

    /// Metres: half the Earth's circumference, past which a search box covers the globe.
    static let halfCircumference = 20_040_000.0

    /// Calls `body` with boxes (one, or two across the antimeridian) that together hold every
    /// point within `metres` of `c` by geodesic distance and by the local plane in which
    /// `distanceToBoundary` measures polygon edges. Latitude: no degree of a meridian is
    /// shorter than 110,574 m. Longitude: on a sphere, a point at angle δ from `c` at latitude φ
    /// is at most asin(sin δ ÷ cos φ) away in longitude, φ being the most poleward latitude the
    /// box reaches (1 % added for the ellipsoid); the plane at `c` needs metres ÷ its metres per
    /// degree of longitude. A box reaching a pole takes every longitude.
    static func forEachBox(around c: Coordinate, metres: Double, _ body: (BoundingBox) -> Void) {
        let dLat = metres / 110_574
        let south = max(c.latitude - dLat, -90)
        let north = min(c.latitude + dLat, 90)
        let poleward = abs(c.latitude) + dLat
        let angle = min(metres * 1.01 / 6_371_008.8, Double.pi)
        let planar = LocalMetres(latitude: c.latitude).perDegreeLongitude
        var dLon = 180.0
        if poleward < 90 && angle < Double.pi / 2 {
            let sine = sin(angle) / cos(poleward * Double.pi / 180)
            if sine < 1, planar > 0 { dLon = max(asin(sine) * 180 / Double.pi, metres / planar) * 1.01 }
        }
        func box(_ west: Double, _ east: Double) -> BoundingBox {
            BoundingBox(minLatitude: south, minLongitude: west, maxLatitude: north, maxLongitude: east)
        }
        if dLon >= 180 {
            body(box(-180, 180))
            return
        }
        body(box(max(c.longitude - dLon, -180), min(c.longitude + dLon, 180)))
        if c.longitude - dLon < -180 { body(box(c.longitude - dLon + 360, 180)) }
        if c.longitude + dLon > 180 { body(box(-180, c.longitude + dLon - 360)) }
    }
}
