import WaymarkCore

extension LocationRecord {
    /// This record as a handler with approximate authorization receives it: the coordinate
    /// snapped to its ≈ 3 km cell (`ApproximateLocation.coarsen`) and the fields that would reveal
    /// more dropped — the error estimates, and the altitude (with the ≈ 3 km cell it would narrow
    /// the place down to a contour line); a stay's centre and a trip's ends snapped alike; kind, time
    /// and other fields unchanged.
    public func coarsened() -> LocationRecord {
        var record = self
        record.coordinate = ApproximateLocation.coarsen(coordinate)
        record.measurements.horizontalAccuracy = nil
        record.measurements.verticalAccuracy = nil
        record.measurements.altitude = nil
        record.stay?.centre = record.coordinate
        record.trip?.from = ApproximateLocation.coarsen(trip?.from ?? coordinate)
        record.trip?.to = record.coordinate
        return record
    }
}
