import Foundation
import WaymarkCore

/// A local east–north plane in metres around an origin: WGS84 geodetic → Earth-centred
/// (ECEF) → east/north on the plane tangent to the ellipsoid at the origin.
///
/// Within 10 km of the origin a distance in the plane is within 2·10⁻⁶ of the true one, and
/// the image of a geodesic up to 20 km long strays less than 2 cm from the straight line
/// between its ends (its curvature in the plane is at most about distance ÷ R²), which is what
/// the simplifier needs to measure cross-track distances. Pure computation.
public struct LocalPlane: Sendable {
    private static let a = Geodesic.equatorialRadius
    private static let e2 = Geodesic.flattening * (2 - Geodesic.flattening)

    public let origin: Coordinate
    private let originECEF: (Double, Double, Double)
    private let sinLat, cosLat, sinLon, cosLon: Double

    public init(origin: Coordinate) {
        self.origin = origin
        let phi = origin.latitude * .pi / 180
        let lambda = origin.longitude * .pi / 180
        sinLat = sin(phi)
        cosLat = cos(phi)
        sinLon = sin(lambda)
        cosLon = cos(lambda)
        originECEF = Self.ecef(origin)
    }

    /// East and north of the origin, metres.
    public func project(_ coordinate: Coordinate) -> (x: Double, y: Double) {
        let (x, y, z) = Self.ecef(coordinate)
        let dx = x - originECEF.0
        let dy = y - originECEF.1
        let dz = z - originECEF.2
        let east = -sinLon * dx + cosLon * dy
        let north = -sinLat * cosLon * dx - sinLat * sinLon * dy + cosLat * dz
        return (east, north)
    }

    private static func ecef(_ coordinate: Coordinate) -> (Double, Double, Double) {
        let phi = coordinate.latitude * .pi / 180
        let lambda = coordinate.longitude * .pi / 180
        let s = sin(phi)
        let n = a / (1 - e2 * s * s).squareRoot()
        return (n * cos(phi) * cos(lambda), n * cos(phi) * sin(lambda), n * (1 - e2) * s)
    }
}
