import WaymarkCore
import WaymarkRegions

/// The outline of a region as polygons of closed rings in longitude/latitude, oriented as
/// RFC 7946 asks (exterior rings counterclockwise, holes clockwise): what GeoJSON, KML and the
/// picture draw.
///
/// A circle becomes a 72-gon whose vertices lie on the geodesic circle (Karney's direct
/// problem), so the outline is within 0.1 % of the radius of the true circle's edge.
public enum RegionOutline {
    /// Vertices of a circle's outline.
    public static let circleVertices = 72

    /// Each polygon as `[exterior, hole, hole, …]`, every ring closed; none for a beacon region,
    /// which has no place on a map.
    public static func polygons(of region: Region) -> [[[Coordinate]]] {
        switch region.shape {
        case .circle(let center, let radius):
            return [[circle(center: center, radius: radius)]]
        case .polygons(let polygons):
            return polygons.map { polygon in
                [oriented(polygon.exterior, counterclockwise: true)]
                    + polygon.holes.map { oriented($0, counterclockwise: false) }
            }
        case .beacon:
            return []
        }
    }

    /// A closed counterclockwise ring of `circleVertices` points `radius` metres from `center`.
    public static func circle(center: Coordinate, radius: Double) -> [Coordinate] {
        var ring: [Coordinate] = []
        ring.reserveCapacity(circleVertices + 1)
        for step in 0..<circleVertices {
            // Azimuth decreasing from north: north, west, south, east is counterclockwise.
            let azimuth = -360 * Double(step) / Double(circleVertices)
            ring.append(Geodesic.destination(from: center, azimuth: azimuth, distance: radius))
        }
        ring.append(ring[0])
        return ring
    }

    /// `ring` in the asked orientation (by the sign of its shoelace area in degrees).
    public static func oriented(_ ring: [Coordinate], counterclockwise: Bool) -> [Coordinate] {
        (signedArea(ring) >= 0) == counterclockwise ? ring : ring.reversed()
    }

    /// Twice the signed area in square degrees: positive for counterclockwise rings.
    public static func signedArea(_ ring: [Coordinate]) -> Double {
        guard ring.count > 2 else { return 0 }
        var sum = 0.0
        for index in 0..<(ring.count - 1) {
            let a = ring[index]
            let b = ring[index + 1]
            sum += a.longitude * b.latitude - b.longitude * a.latitude
        }
        return sum
    }
}
