/// One position report from a receiver or a recorded track, with what is known of its quality.
///
/// Optional fields are `nil` when the source did not report them (gpsd's NaN, a GPX point
/// without `<ele>`), never a made-up default.
public struct Fix: Sendable, Equatable {
    /// When the position was measured; `nil` for untimed track points.
    public var time: Timestamp?
    public var coordinate: Coordinate
    /// Metres above the WGS84 ellipsoid or mean sea level, as the source reports it.
    public var altitude: Double?
    /// Estimated horizontal error in metres (gpsd's `eph`), when the source gives one.
    public var horizontalAccuracy: Double?
    /// Estimated vertical error in metres (gpsd's `epv`).
    public var verticalAccuracy: Double?
    /// Dilutions of precision, unitless.
    public var hdop: Double?
    public var vdop: Double?
    public var pdop: Double?
    /// Satellites used in the solution.
    public var satellites: Int?
    /// The kind of solution, when the source says.
    public var mode: FixMode?
    /// Metres per second over ground.
    public var speed: Double?
    /// Degrees clockwise from true north.
    public var course: Double?
    /// Estimated error of the latitude, in metres north–south (gpsd's `epy`).
    public var latitudeAccuracy: Double?
    /// Estimated error of the longitude, in metres east–west (gpsd's `epx`).
    public var longitudeAccuracy: Double?

    public init(
        time: Timestamp?, coordinate: Coordinate, altitude: Double? = nil,
        horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
        hdop: Double? = nil, vdop: Double? = nil, pdop: Double? = nil,
        satellites: Int? = nil, mode: FixMode? = nil, speed: Double? = nil, course: Double? = nil,
        latitudeAccuracy: Double? = nil, longitudeAccuracy: Double? = nil
    ) {
        self.time = time
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.hdop = hdop
        self.vdop = vdop
        self.pdop = pdop
        self.satellites = satellites
        self.mode = mode
        self.speed = speed
        self.course = course
        self.latitudeAccuracy = latitudeAccuracy
        self.longitudeAccuracy = longitudeAccuracy
    }
}

/// The kind of solution a fix comes from (GPX 1.1 `fixType`, gpsd's `mode`).
public enum FixMode: String, Sendable, Equatable {
    case none
    case twoD = "2d"
    case threeD = "3d"
    case dgps
    case pps
}
