import CProj
import Foundation

/// Geodesic computations on the WGS84 ellipsoid with Karney's algorithms (PROJ's
/// `geod_inverse` / `geod_direct`): accurate to nanometres, which is what "within 500 m" and
/// "inside a 5 m circle" need. Pure computation.
public enum Geodesic {
    /// WGS84 semi-major axis (m) and flattening, EPSG:7030.
    public static let equatorialRadius = 6_378_137.0
    public static let flattening = 1 / 298.257_223_563
    /// Mean Earth radius (IUGG R1), metres, for the spherical estimates.
    public static let meanRadius = 6_371_008.8

    private static let wgs84: geod_geodesic = {
        var g = geod_geodesic()
        geod_init(&g, equatorialRadius, flattening)
        return g
    }()

    /// Length in metres of the shortest path on the ellipsoid between `a` and `b`.
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        inverse(a, b).distance
    }

    /// Distance (m) and the forward azimuths (degrees clockwise from north) at both ends.
    public static func inverse(_ a: Coordinate, _ b: Coordinate)
        -> (distance: Double, initialAzimuth: Double, finalAzimuth: Double)
    {
        var g = wgs84
        var s12 = 0.0
        var azi1 = 0.0
        var azi2 = 0.0
        geod_inverse(&g, a.latitude, a.longitude, b.latitude, b.longitude, &s12, &azi1, &azi2)
        return (s12, azi1, azi2)
    }

    /// The point `distance` metres from `start` along the azimuth `azimuth` (degrees).
    public static func destination(from start: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
        var g = wgs84
        var lat2 = 0.0
        var lon2 = 0.0
        var azi2 = 0.0
        geod_direct(&g, start.latitude, start.longitude, azimuth, distance, &lat2, &lon2, &azi2)
        return Coordinate(latitude: lat2, longitude: lon2)
    }

    /// Whether `b` lies within `metres` of `a` (geodesic, inclusive), exactly as
    /// `distance(a, b) <= metres` says: the spherical estimate decides when it is more than its
    /// error bound (0.6 %) away from `metres`, the geodesic only in that band. Hot loops (the
    /// visit rule runs two of these a fix) pay a haversine instead of Karney's inverse.
    public static func isWithin(_ a: Coordinate, _ b: Coordinate, metres: Double) -> Bool {
        let estimate = sphericalDistance(a, b)
        if estimate < metres * 0.994 { return true }
        if estimate > metres * 1.006 { return false }
        return distance(a, b) <= metres
    }

    /// Great-circle distance on a sphere of `meanRadius` (haversine): within 0.56 % of the
    /// ellipsoidal distance everywhere, so it can decide cases far from a threshold cheaply.
    public static func sphericalDistance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let toRadians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * toRadians
        let dLon = (b.longitude - a.longitude) * toRadians
        let sinLat = sin(dLat / 2)
        let sinLon = sin(dLon / 2)
        let h = sinLat * sinLat + cos(a.latitude * toRadians) * cos(b.latitude * toRadians) * sinLon * sinLon
        return 2 * meanRadius * asin(min(1, h.squareRoot()))
    }
}
