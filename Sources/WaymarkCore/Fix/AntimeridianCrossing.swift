/// Where the step from one position to the next crosses the antimeridian, for writers that must
/// cut lines there: RFC 7946 §3.1.9 asks that no GeoJSON segment span more than 180° of
/// longitude, because map software draws such a segment the long way, across the whole world.
///
/// A step crosses when its two longitudes differ by more than 180°; it is taken the short way
/// round (`Coordinate.degreesEast`) and linear in longitude/latitude, as the region engine
/// takes a step. The line leaves by the meridian on its side of the seam (+180° going east,
/// −180° going west) and comes back in on the opposite one at the same latitude.
public struct AntimeridianCrossing: Sendable, Equatable {
    /// The longitude the line leaves by: 180 going east, −180 going west.
    public var leavingLongitude: Double
    /// The fraction of the step (0…1) at which it crosses: for interpolating time or altitude.
    public var fraction: Double
    /// Degrees, linear in longitude along the step.
    public var latitude: Double

    /// The crossing of the step from `a` to `b`; `nil` when the longitudes differ by 180° or less.
    public init?(from a: Coordinate, to b: Coordinate) {
        guard abs(b.longitude - a.longitude) > 180 else { return nil }
        let east = Coordinate.degreesEast(from: a.longitude, to: b.longitude)
        leavingLongitude = east > 0 ? 180 : -180
        // Clamped: with an end on the seam itself rounding could put it a hair outside 0…1,
        // and callers split the step into the ranges 0…fraction and fraction…1.
        fraction = min(max(Coordinate.degreesEast(from: a.longitude, to: leavingLongitude) / east, 0), 1)
        latitude = a.latitude + fraction * (b.latitude - a.latitude)
    }

    /// The longitude the line comes back in by: −180 going east, 180 going west.
    public var enteringLongitude: Double { -leavingLongitude }

    /// The last point before the seam.
    public var leaving: Coordinate { Coordinate(latitude: latitude, longitude: leavingLongitude) }
    /// The first point after the seam.
    public var entering: Coordinate { Coordinate(latitude: latitude, longitude: enteringLongitude) }
}
