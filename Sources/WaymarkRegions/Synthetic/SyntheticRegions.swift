#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WaymarkCore

/// Seeded synthetic regions for tests and benchmarks: half circles of 100–500 m radius, half
/// irregular star polygons of 100–600 m, spread uniformly over a box.
public enum SyntheticRegions {
    /// How circles are represented.
    public enum CircleStyle: Sendable {
        /// 32-gons with vertices on the geodesic circle (33 positions, closed).
        case polygon32
        /// True circles, membership by geodesic distance.
        case geodesic
    }

    /// A city-sized box, 0.5° of longitude × 0.4° of latitude (about 37 km × 44 km at 48° N).
    public static let cityBox = BoundingBox(minLatitude: 48.0, minLongitude: 11.3, maxLatitude: 48.4, maxLongitude: 11.8)
    /// A sparse country-sized box, 9° × 7.5°.
    public static let countryBox = BoundingBox(minLatitude: 46.0, minLongitude: 6.0, maxLatitude: 53.5, maxLongitude: 15.0)

    /// `count` regions over `cityBox`, identifiers `city-00000`….
    public static func city(seed: UInt64, count: Int, circles: CircleStyle = .polygon32) -> [Region] {
        generate(in: cityBox, prefix: "city", seed: seed, count: count, circles: circles)
    }

    /// `count` regions over `countryBox`, identifiers `country-00000`….
    public static func country(seed: UInt64, count: Int, circles: CircleStyle = .polygon32) -> [Region] {
        generate(in: countryBox, prefix: "country", seed: seed, count: count, circles: circles)
    }

    /// Even indices are circles, odd ones stars; centres uniform in `box`.
    public static func generate(
        in box: BoundingBox, prefix: String, seed: UInt64, count: Int, circles: CircleStyle
    ) -> [Region] {
        var rng = SplitMix64(seed: seed)
        var regions: [Region] = []
        regions.reserveCapacity(count)
        for i in 0..<count {
            let center = Coordinate(
                latitude: rng.uniform(box.minLatitude...box.maxLatitude),
                longitude: rng.uniform(box.minLongitude...box.maxLongitude))
            let identifier = prefix + "-" + String(i).leftPadded(to: 5)
            if i % 2 == 0 {
                let radius = rng.uniform(100...500)
                switch circles {
                case .geodesic:
                    regions.append(Region(identifier: identifier, shape: .circle(center: center, radius: radius)))
                case .polygon32:
                    regions.append(
                        Region(identifier: identifier, shape: .polygons([Polygon(exterior: circlePolygon(center, radius))])))
                }
            } else {
                regions.append(
                    Region(identifier: identifier, shape: .polygons([Polygon(exterior: star(center, &rng))])))
            }
        }
        return regions
    }

    /// A closed 32-gon whose vertices lie `radius` metres from `center` (geodesic).
    public static func circlePolygon(_ center: Coordinate, _ radius: Double, sides: Int = 32) -> [Coordinate] {
        var ring = (0..<sides).map {
            Geodesic.destination(from: center, azimuth: Double($0) * 360 / Double(sides), distance: radius)
        }
        ring.append(ring[0])
        return ring
    }

    /// An irregular star: 5–12 points, outer radius drawn from `outerRadius` (metres), each
    /// vertex's radius jittered.
    public static func star(
        _ center: Coordinate, outerRadius: ClosedRange<Double> = 100...600, _ rng: inout SplitMix64
    ) -> [Coordinate] {
        let points = Int(rng.next() % 8) + 5
        let outer = rng.uniform(outerRadius)
        let innerRatio = rng.uniform(0.35...0.7)
        let rotation = rng.uniform(0...(2 * Double.pi))
        let metresPerDegreeLat = 111_320.0
        let metresPerDegreeLon = 111_320.0 * cos(center.latitude * Double.pi / 180)
        var ring: [Coordinate] = []
        for k in 0..<(2 * points) {
            let angle = rotation + Double(k) * Double.pi / Double(points)
            let r = (k % 2 == 0 ? outer : outer * innerRatio) * rng.uniform(0.85...1.0)
            ring.append(
                Coordinate(
                    latitude: center.latitude + r * cos(angle) / metresPerDegreeLat,
                    longitude: center.longitude + r * sin(angle) / metresPerDegreeLon))
        }
        ring.append(ring[0])
        return ring
    }
}

/// Seeded synthetic fixes.
public enum SyntheticFixes {
    /// `count` fixes uniformly distributed in `box` (uniform in degrees), one second apart
    /// from `start`.
    public static func uniform(
        in box: BoundingBox, count: Int, seed: UInt64,
        start: Timestamp = Timestamp(nanosecondsSince1970: 1_700_000_000_000_000_000)
    ) -> [Fix] {
        var rng = SplitMix64(seed: seed)
        var fixes: [Fix] = []
        fixes.reserveCapacity(count)
        for i in 0..<count {
            let c = Coordinate(
                latitude: rng.uniform(box.minLatitude...box.maxLatitude),
                longitude: rng.uniform(box.minLongitude...box.maxLongitude))
            fixes.append(Fix(time: start.adding(seconds: Double(i)), coordinate: c))
        }
        return fixes
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
