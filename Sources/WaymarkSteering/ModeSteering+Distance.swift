import WaymarkCore
import WaymarkRegions

extension SteeringRegions {
    /// Metres from `c` to the nearest boundary of a region the phone cannot watch itself (not
    /// `PhoneGeofence.isExact`: a polygon, a circle under 100 m), or `limit` when none is
    /// nearer. Regions are searched in boxes growing fourfold from 250 m, like
    /// `RegionIndex.distanceToNearestBoundary`, skipping the ones the phone watches exactly.
    public func distanceToNearestPreciseBoundary(from c: Coordinate, limit: Double) -> Double {
        guard !regions.isEmpty else { return limit }
        var candidates: [Int32] = []
        var reach = min(250.0, limit)
        while true {
            index.regions(near: c, within: reach, into: &candidates)
            var nearest = reach
            for region in candidates where !PhoneGeofence.isExact(regions[Int(region)]) {
                nearest = min(nearest, index.distanceToBoundary(ofRegionAt: Int(region), from: c, limit: nearest))
            }
            if nearest < reach || reach >= limit { return min(nearest, limit) }
            reach = min(reach * 4, limit)
        }
    }
}
