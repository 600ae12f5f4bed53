import WaymarkCore

extension LocationRecord {
    /// Fields that would reveal more than an approximate location: the error estimates, and the
    /// altitude (with the ≈ 3 km cell it would narrow the place down to a contour line).
    static let accuracyFields: Set<String> = [
        "horizontalAccuracy", "verticalAccuracy", "latitudeAccuracy", "longitudeAccuracy", "altitude",
    ]

    /// This record as a handler with approximate authorization receives it: the coordinate
    /// snapped to its ≈ 3 km cell (`ApproximateLocation.coarsen`) and the accuracy fields and
    /// altitude dropped; kind, time and other fields unchanged.
    public func coarsened() -> LocationRecord {
        LocationRecord(
            kind: kind, time: time, coordinate: ApproximateLocation.coarsen(coordinate),
            fields: fields.filter { !Self.accuracyFields.contains($0.0) })
    }
}
