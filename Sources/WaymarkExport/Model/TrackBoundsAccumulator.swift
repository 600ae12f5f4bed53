import WaymarkCore
import WaymarkRegions

/// The box around a track's points the short way round the Earth, in one pass and constant
/// memory: what `TrackOverview.bounds` holds.
///
/// A box of plain minimum and maximum longitudes around a track over the antimeridian (179.9°
/// then −179.9°) spans the whole world. So the longitudes are also gathered with those west of
/// Greenwich moved a turn east (+360°), where such a track is one short interval, and the box
/// takes that interval when it is strictly narrower: its `maxLongitude` then runs past 180°
/// (the box 177…182 is 177°E over the seam to 178°W), which keeps it a plain box for drawing;
/// writers that need −180…180 wrap it (`BoundingBox.westAndEast`). Any other track gets exactly
/// the plain box.
///
/// Only the two intervals are tried (the one containing no longitude around 180°, and the one
/// containing none around 0°), so a track spread all round the world may get a wider box than
/// the narrowest possible; that needs the points sorted, which streaming has not got.
public struct TrackBoundsAccumulator: Sendable {
    private var plain: BoundingBox?
    /// Least and greatest longitude with negative longitudes taken +360°.
    private var shiftedWest = Double.infinity
    private var shiftedEast = -Double.infinity

    public init() {}

    public mutating func add(_ coordinate: Coordinate) {
        if plain == nil { plain = BoundingBox(coordinate) } else { plain!.formUnion(coordinate) }
        let shifted = coordinate.longitude < 0 ? coordinate.longitude + 360 : coordinate.longitude
        shiftedWest = min(shiftedWest, shifted)
        shiftedEast = max(shiftedEast, shifted)
    }

    /// The box; `nil` before the first point.
    public var bounds: BoundingBox? {
        guard var box = plain else { return nil }
        if shiftedEast - shiftedWest < box.maxLongitude - box.minLongitude {
            box.minLongitude = shiftedWest
            box.maxLongitude = shiftedEast
        }
        return box
    }
}
