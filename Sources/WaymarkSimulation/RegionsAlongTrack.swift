import WaymarkCore
import WaymarkRegions

/// Seeded regions along a track, to measure what monitoring them costs (the power benchmark):
/// anchors drawn uniformly by distance along the path; around each, a region of radius drawn
/// from `radii`, its centre offset from the path by up to twice the radius in a random
/// direction — so about half contain the path (crossed: enter and exit) and the rest lie beside
/// it, the near misses that keep a power-aware receiver awake without an event. Even regions are
/// geodesic circles, odd ones irregular star polygons. The same track and seed give the same
/// regions on every machine.
public struct RegionsAlongTrack: Sendable {
    public var seed: UInt64
    /// Regions per kilometre of path (at least one region in all).
    public var perKilometre: Double
    /// Metres: the circle's radius, the star's outer radius.
    public var radii: ClosedRange<Double>
    /// Identifier prefix: regions are PREFIX-000, PREFIX-001….
    public var prefix: String

    public init(seed: UInt64, perKilometre: Double = 0.5, radii: ClosedRange<Double> = 50...400, prefix: String = "along") {
        self.seed = seed
        self.perKilometre = perKilometre
        self.radii = radii
        self.prefix = prefix
    }

    public func regions(along path: [Coordinate]) -> [Region] {
        guard let first = path.first else { return [] }
        var cumulative = [0.0]
        cumulative.reserveCapacity(path.count)
        for (a, b) in zip(path, path.dropFirst()) { cumulative.append(cumulative.last! + Geodesic.distance(a, b)) }
        let length = cumulative.last!
        let count = max(1, Int((length / 1000 * perKilometre).rounded()))
        var rng = SplitMix64(seed: seed)
        let width = String(count - 1).count
        return (0..<count).map { i in
            let anchor = length > 0 ? Self.point(at: rng.uniform(0...length), on: path, cumulative: cumulative) : first
            let radius = rng.uniform(radii)
            let center = Geodesic.destination(from: anchor, azimuth: rng.uniform(0...360), distance: rng.uniform(0...(2 * radius)))
            let number = String(i)
            let identifier = prefix + "-" + String(repeating: "0", count: max(0, width - number.count)) + number
            if i % 2 == 0 { return Region(identifier: identifier, shape: .circle(center: center, radius: radius)) }
            let ring = SyntheticRegions.star(center, outerRadius: radius...radius, &rng)
            return Region(identifier: identifier, shape: .polygons([Polygon(exterior: ring)]))
        }
    }

    /// The point `distance` metres along `path` (linear between vertices, in degrees, the short
    /// way round the antimeridian).
    static func point(at distance: Double, on path: [Coordinate], cumulative: [Double]) -> Coordinate {
        var low = 0, high = cumulative.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if cumulative[mid] <= distance { low = mid } else { high = mid }
        }
        let span = cumulative[high] - cumulative[low]
        let t = span > 0 ? (distance - cumulative[low]) / span : 0
        let a = path[low], b = path[high]
        let longitude = Coordinate.wrapped(longitude: a.longitude + t * Coordinate.degreesEast(from: a.longitude, to: b.longitude))
        return Coordinate(latitude: a.latitude + t * (b.latitude - a.latitude), longitude: longitude)
    }
}
