import WaymarkCore

/// What the sentences of one receiver epoch (one UTC time) said, merged into one fix.
///
/// A receiver reports each solution in several sentences (RMC, GGA, GSA, VTG, GLL, GNS, GST,
/// ZDA); the ones that carry a time name the epoch, the ones that do not (GSA, VTG) belong to
/// the epoch of the sentence before them. When several give the position, the last valid one
/// wins, as in gpsd (receivers give them all the same position).
struct NMEAEpoch {
    /// Nanoseconds since midnight UTC.
    let timeOfDay: Int64
    var coordinate: Coordinate?
    var altitude: Double?
    var speed: Double?
    var course: Double?
    var satellites: Int?
    var hdop: Double?
    var vdop: Double?
    var pdop: Double?
    /// GSA's fix type: 1 none, 2 2D, 3 3D.
    var gsaMode: Int?
    var latitudeError: Double?
    var longitudeError: Double?
    var altitudeError: Double?

    init(timeOfDay: Int64) { self.timeOfDay = timeOfDay }

    /// The fix, when a sentence gave a valid position and GSA did not say there is no fix;
    /// `day` (days since 1970) stamps it, nil leaves it untimed.
    func fix(day: Int?) -> Fix? {
        guard let coordinate, gsaMode != 1 else { return nil }
        let mode: FixMode =
            switch gsaMode {
            case 3: .threeD
            case 2: .twoD
            default: altitude == nil ? .twoD : .threeD
            }
        var horizontal: Double?
        if let latitudeError, let longitudeError {
            horizontal = (latitudeError * latitudeError + longitudeError * longitudeError).squareRoot()
        }
        return Fix(
            time: day.map { Timestamp(nanosecondsSince1970: Int64($0) * 86_400_000_000_000 + timeOfDay) },
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: horizontal,
            verticalAccuracy: altitudeError, hdop: hdop, vdop: vdop, pdop: pdop, satellites: satellites,
            mode: mode, speed: speed, course: course,
            latitudeAccuracy: latitudeError, longitudeAccuracy: longitudeError)
    }
}
