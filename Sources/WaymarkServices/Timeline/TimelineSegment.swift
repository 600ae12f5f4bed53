import WaymarkCore

/// How a trip was made, judged from its speed profile alone (`TravelMode.judge`; the rule is
/// written down in docs/timeline.md).
public enum TravelMode: String, Sendable, Hashable, CaseIterable, Codable {
    case walking, running, cycling, driving, train, flight
    /// Too few moving fixes to tell.
    case unknown
}

/// A stay: the visit detector's stay (`VisitDetector`, the same rule), once the device has left it.
public struct TimelineStay: Sendable, Equatable {
    /// The stay's first fix (the visit's arrival time).
    public var arrival: Timestamp
    /// The stay's last fix inside the radius (the visit's departure time).
    public var departure: Timestamp
    /// The mean of the stay's fixes.
    public var centre: Coordinate
    /// Metres: the farthest of the stay's fixes from `centre`.
    public var uncertainty: Double
    /// How many fixes the stay held.
    public var fixCount: Int

    public init(arrival: Timestamp, departure: Timestamp, centre: Coordinate, uncertainty: Double, fixCount: Int) {
        self.arrival = arrival
        self.departure = departure
        self.centre = centre
        self.uncertainty = uncertainty
        self.fixCount = fixCount
    }

    public var duration: Double { departure.seconds(since: arrival) }
}

/// A trip: the movement between two stays (or from the history's first fix to the first stay),
/// from the last fix of the stay left to the first fix of the stay reached.
public struct TimelineTrip: Sendable, Equatable {
    public var start: Timestamp
    public var end: Timestamp
    public var from: Coordinate
    public var to: Coordinate
    /// Metres along the fixes (geodesic, WGS84).
    public var distance: Double
    /// Seconds in motion (docs/timeline.md says what counts as moving).
    public var movingTime: Double
    /// Metres per second.
    public var maxSpeed: Double
    /// Metres per second: `distance` over the trip's duration.
    public var averageSpeed: Double
    /// Metres climbed, when the fixes have altitudes.
    public var elevationGain: Double?
    public var mode: TravelMode
    public var fixCount: Int

    public init(
        start: Timestamp, end: Timestamp, from: Coordinate, to: Coordinate, distance: Double, movingTime: Double, maxSpeed: Double,
        averageSpeed: Double, elevationGain: Double?, mode: TravelMode, fixCount: Int
    ) {
        self.start = start
        self.end = end
        self.from = from
        self.to = to
        self.distance = distance
        self.movingTime = movingTime
        self.maxSpeed = maxSpeed
        self.averageSpeed = averageSpeed
        self.elevationGain = elevationGain
        self.mode = mode
        self.fixCount = fixCount
    }

    public var duration: Double { end.seconds(since: start) }
}

/// One piece of a device's timeline, in time order: stays and the trips between them.
public enum TimelineSegment: Sendable, Equatable {
    case stay(TimelineStay)
    case trip(TimelineTrip)

    /// When the segment began.
    public var start: Timestamp {
        switch self {
        case .stay(let stay): stay.arrival
        case .trip(let trip): trip.start
        }
    }

    /// When the segment ended.
    public var end: Timestamp {
        switch self {
        case .stay(let stay): stay.departure
        case .trip(let trip): trip.end
        }
    }
}
