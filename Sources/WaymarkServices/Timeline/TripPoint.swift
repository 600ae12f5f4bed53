import WaymarkCore

/// What a trip keeps of one fix: its time, position, altitude and stated accuracy, and nothing
/// else, so buffering a long trip costs about 50 bytes a fix.
struct TripPoint: Sendable, Equatable {
    var time: Timestamp
    var coordinate: Coordinate
    var altitude: Double?
    var horizontalAccuracy: Double?

    /// The fix's point; nil for an untimed fix (the gate never admits one).
    init?(_ fix: Fix) {
        guard let time = fix.time else { return nil }
        self.time = time
        coordinate = fix.coordinate
        altitude = fix.altitude.flatMap { $0.isFinite ? $0 : nil }
        horizontalAccuracy = fix.horizontalAccuracy.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }
}
