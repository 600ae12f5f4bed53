import WaymarkCore
import WaymarkRegions

extension BoundingBox {
    /// The west and east edges in −180…180, as RFC 7946 §5.2 writes a bbox: for a box over the
    /// antimeridian (one whose `maxLongitude` runs past 180°, see `TrackBoundsAccumulator`)
    /// west is greater than east, e.g. 177 and −178. Any other box's edges as they are.
    public var westAndEast: (west: Double, east: Double) {
        (Coordinate.wrapped(longitude: minLongitude), Coordinate.wrapped(longitude: maxLongitude))
    }
}
