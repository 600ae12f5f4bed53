import WaymarkCore

/// A circle around polygons, for clients that only understand circles (a phone's geofencing,
/// `PhoneGeofence`).
///
/// The centre is the area centroid of the exterior rings (holes do not matter to a circle that
/// must contain the outline), computed in longitude/latitude with longitudes unwrapped near the
/// first vertex so a ring across the antimeridian stays whole; each ring is weighted by its
/// area whatever its winding. The radius is the largest geodesic distance (`Geodesic`) from the
/// centre to a vertex. Every vertex is inside; the circle is not the smallest possible one, and
/// edges of a polygon hundreds of kilometres wide, straight in longitude/latitude, may stray
/// slightly outside between vertices.
public struct EnclosingCircle: Sendable, Equatable {
    public var center: Coordinate
    /// Metres.
    public var radius: Double

    public init(center: Coordinate, radius: Double) {
        self.center = center
        self.radius = radius
    }

    /// `nil` when the polygons have no vertex at all.
    public init?(_ polygons: [Polygon]) {
        let rings = polygons.map(\.exterior).filter { !$0.isEmpty }
        guard let reference = rings.first?.first?.longitude else { return nil }
        var weightedX = 0.0
        var weightedY = 0.0
        var totalArea = 0.0
        var sumX = 0.0
        var sumY = 0.0
        var vertices = 0
        for ring in rings {
            let points = ring.map { (x: Coordinate.longitude($0.longitude, near: reference), y: $0.latitude) }
            var twiceArea = 0.0
            var cx = 0.0
            var cy = 0.0
            for (a, b) in zip(points, points.dropFirst() + [points[0]]) {
                let cross = a.x * b.y - b.x * a.y
                twiceArea += cross
                cx += (a.x + b.x) * cross
                cy += (a.y + b.y) * cross
            }
            // A closed ring repeats its first point last; count each vertex once.
            let distinct = points.count > 1 && points.first! == points.last! ? points.dropLast() : points[...]
            for point in distinct {
                sumX += point.x
                sumY += point.y
            }
            vertices += distinct.count
            guard twiceArea != 0 else { continue }
            let area = abs(twiceArea) / 2
            weightedX += cx / (3 * twiceArea) * area
            weightedY += cy / (3 * twiceArea) * area
            totalArea += area
        }
        // Rings without area (every vertex on one line) fall back to the mean of the vertices.
        let x = totalArea > 0 ? weightedX / totalArea : sumX / Double(vertices)
        let y = totalArea > 0 ? weightedY / totalArea : sumY / Double(vertices)
        let center = Coordinate(latitude: min(max(y, -90), 90), longitude: Coordinate.wrapped(longitude: x))
        var radius = 0.0
        for ring in rings {
            for vertex in ring { radius = max(radius, Geodesic.distance(center, vertex)) }
        }
        self.center = center
        self.radius = radius
    }
}
