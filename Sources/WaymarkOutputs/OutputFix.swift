import WaymarkCore

/// A recorded fix as an output reads it from the history (`fixes`): what OwnTracks' `location`
/// and a Home Assistant device tracker show.
public struct OutputFix: Sendable, Equatable {
    /// The history row id: increasing in commit order.
    public var sequence: Int64
    public var device: String
    public var time: Timestamp
    public var coordinate: Coordinate
    /// Metres (the source's horizontal accuracy), when it reported one.
    public var accuracy: Double?
    /// Horizontal dilution of precision, when the source gave it (and perhaps no accuracy).
    public var hdop: Double?
    public var altitude: Double?
    /// Metres per second.
    public var speed: Double?
    /// Degrees clockwise from true north.
    public var course: Double?

    public init(
        sequence: Int64, device: String, time: Timestamp, coordinate: Coordinate, accuracy: Double? = nil, hdop: Double? = nil, altitude: Double? = nil,
        speed: Double? = nil, course: Double? = nil
    ) {
        self.sequence = sequence
        self.device = device
        self.time = time
        self.coordinate = coordinate
        self.accuracy = accuracy
        self.hdop = hdop
        self.altitude = altitude
        self.speed = speed
        self.course = course
    }
}
