import Foundation
import GRDB
import WaymarkCore
import WaymarkRegions

extension WaymarkStore {
    /// The identifiers of the regions containing `coordinate`, in identifier order, computed by
    /// SpatiaLite alone: the independent reference the in-memory engine is tested against.
    ///
    /// - Polygons: candidates from the spatial index's R*Tree table `idx_regions_geometry` by
    ///   bounding box (2.5–2.8× faster than the `SpatialIndex` virtual table, docs/platform.md), then
    ///   `ST_Contains(geometry, point)`, planar in longitude/latitude as GeoJSON's straight
    ///   edges are. `ST_Contains` is false on the boundary, so a point exactly on an edge (or on
    ///   a hole's edge) is outside here.
    /// - Circles: candidates from the R*Tree by a box around `coordinate` wide enough for the
    ///   largest stored radius, then `ST_Distance(centre, point, 1) <= radius`: the geodesic
    ///   distance on the WGS84 ellipsoid (SpatiaLite 5 through PROJ's `geod_inverse`; it agrees
    ///   with `Geodesic.distance` to the nanometre), so the boundary is inside.
    public func containingRegionIdentifiers(_ coordinate: Coordinate) throws -> [String] {
        do {
            return try database.read { db in
                let maxRadius = try Double.fetchOne(db, sql: "SELECT max(radius) FROM regions")
                var identifiers = try String.fetchAll(
                    db,
                    sql: """
                        SELECT r.identifier
                        FROM idx_regions_geometry AS i CROSS JOIN regions AS r ON r.id = i.pkid
                        WHERE i.xmin <= :lon AND i.xmax >= :lon AND i.ymin <= :lat AND i.ymax >= :lat
                          AND r.kind = 'polygon'
                          AND ST_Contains(r.geometry, MakePoint(:lon, :lat, 4326)) = 1
                        """,
                    arguments: ["lon": coordinate.longitude, "lat": coordinate.latitude])
                if let maxRadius {
                    let box = Self.searchBox(around: coordinate, radius: maxRadius)
                    identifiers += try String.fetchAll(
                        db,
                        sql: """
                            SELECT r.identifier
                            FROM idx_regions_geometry AS i CROSS JOIN regions AS r ON r.id = i.pkid
                            WHERE i.xmin <= :east AND i.xmax >= :west AND i.ymin <= :north AND i.ymax >= :south
                              AND r.kind = 'circle'
                              AND ST_Distance(r.geometry, MakePoint(:lon, :lat, 4326), 1) <= r.radius
                            """,
                        arguments: [
                            "lon": coordinate.longitude, "lat": coordinate.latitude, "west": box.west,
                            "east": box.east, "south": box.south, "north": box.north,
                        ])
                }
                return identifiers.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            }
        } catch {
            throw storeError(error, doing: "querying the regions containing \(coordinate.latitude), \(coordinate.longitude)")
        }
    }

    /// A longitude/latitude box (degrees) holding every point within `radius` metres
    /// (geodesic) of `center`, generously: angles are taken on a sphere of the ellipsoid's
    /// smallest radius of curvature, a(1 − e²) = 6 335 439 m, plus 1 % and 1e-6°. A box that
    /// would cross the antimeridian or reach a pole spans all longitudes.
    static func searchBox(around center: Coordinate, radius: Double)
        -> (west: Double, east: Double, south: Double, north: Double)
    {
        let world = (west: -180.0, east: 180.0, south: -90.0, north: 90.0)
        let angle = radius / 6_335_439  // radians
        guard angle < .pi / 4 else { return world }
        let degrees = 180 / Double.pi
        let dLat = angle * degrees * 1.01 + 1e-6
        let south = max(-90, center.latitude - dLat)
        let north = min(90, center.latitude + dLat)
        let farthestLatitude = max(abs(south), abs(north))
        guard farthestLatitude < 89 else { return (world.west, world.east, south, north) }
        let ratio = sin(angle) / cos(farthestLatitude / degrees)
        guard ratio < 1 else { return (world.west, world.east, south, north) }
        let dLon = asin(ratio) * degrees * 1.01 + 1e-6
        let west = center.longitude - dLon
        let east = center.longitude + dLon
        guard west >= -180 && east <= 180 else { return (world.west, world.east, south, north) }
        return (west, east, south, north)
    }
}
