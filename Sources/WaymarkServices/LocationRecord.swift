import WaymarkCore

/// One output of a location service (docs/semantics.md §2): typed values from the service to
/// every consumer. Its JSON (`json`) is made only at the edges — `waymark replay`'s JSON Lines,
/// the history's records, the stream and the handler protocol — always the same bytes.
public struct LocationRecord: Sendable, Equatable {
    /// What the service reported; its raw value is the record's `kind`.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A standard-updates location.
        case location
        /// A significant-change location.
        case significantChange
        /// A visit's arrival or departure (`visit`).
        case visit
        /// Standard updates paused (stationary) or resumed.
        case paused, resumed
        /// A timeline stay, once the device has left it (the `timeline` service).
        case stay
        /// A timeline trip, once it has reached its stay (the `timeline` service).
        case trip
    }

    /// What a location carries of its fix, in Core Location's terms; nil when unknown.
    public struct Measurements: Sendable, Equatable {
        /// Metres (1 σ), horizontally and vertically.
        public var horizontalAccuracy: Double?
        /// Metres above the WGS84 ellipsoid (as the fix gives it).
        public var altitude: Double?
        public var verticalAccuracy: Double?
        /// Metres per second.
        public var speed: Double?
        /// Degrees clockwise from true north.
        public var course: Double?

        public init(
            horizontalAccuracy: Double? = nil, altitude: Double? = nil, verticalAccuracy: Double? = nil, speed: Double? = nil,
            course: Double? = nil
        ) {
            self.horizontalAccuracy = horizontalAccuracy
            self.altitude = altitude
            self.verticalAccuracy = verticalAccuracy
            self.speed = speed
            self.course = course
        }

        /// What `fix` carries.
        public init(of fix: Fix) {
            self.init(
                horizontalAccuracy: fix.horizontalAccuracy, altitude: fix.altitude, verticalAccuracy: fix.verticalAccuracy, speed: fix.speed,
                course: fix.course)
        }
    }

    /// A visit's arrival (no departure time) or departure.
    public struct Visit: Sendable, Equatable {
        public enum Event: String, Sendable { case arrival, departure }

        public var event: Event
        public var arrivalTime: Timestamp
        /// Set for a departure.
        public var departureTime: Timestamp?
        /// Metres: how far the stay's fixes lay from its centre.
        public var uncertainty: Double

        public init(event: Event, arrivalTime: Timestamp, departureTime: Timestamp? = nil, uncertainty: Double) {
            self.event = event
            self.arrivalTime = arrivalTime
            self.departureTime = departureTime
            self.uncertainty = uncertainty
        }
    }

    public var kind: Kind
    public var time: Timestamp
    public var coordinate: Coordinate
    /// A location's measurements (empty for the other kinds).
    public var measurements = Measurements()
    /// A deferred location's batch number (standard updates' deferred delivery).
    public var batch: Int?
    /// A visit's arrival or departure.
    public var visit: Visit?
    /// A stay's arrival, departure, uncertainty and fixes (kind `stay`).
    public var stay: TimelineStay?
    /// A trip's times, start, distance, speeds and mode (kind `trip`).
    public var trip: TimelineTrip?
    /// The configured subscription the record was made for, in the daemon's history and stream.
    public var subscription: String?

    public init(
        kind: Kind, time: Timestamp, coordinate: Coordinate, measurements: Measurements = Measurements(), batch: Int? = nil,
        visit: Visit? = nil, stay: TimelineStay? = nil, trip: TimelineTrip? = nil, subscription: String? = nil
    ) {
        self.kind = kind
        self.time = time
        self.coordinate = coordinate
        self.measurements = measurements
        self.batch = batch
        self.visit = visit
        self.stay = stay
        self.trip = trip
        self.subscription = subscription
    }
}

/// A location service: accepted fixes in time order, records out. Value types with no I/O.
public protocol LocationService: Sendable {
    mutating func process(_ fix: Fix) -> [LocationRecord]
    /// Records still pending at the end of the input (a deferred batch, an open visit's nothing).
    mutating func finish() -> [LocationRecord]
    /// What of this service's state must survive a restart (`ServiceMark`); nil when nothing does.
    var mark: ServiceMark? { get }
    /// Continues from `marks` saved by an earlier run. `fixes` are the stored fixes since
    /// `marks.replayFrom`, already through the subscriber's gate, in time order; records they
    /// produce were delivered before the restart and are not reported again.
    mutating func resume(from marks: [ServiceMark], replaying fixes: [Fix])
}

extension LocationService {
    /// A service that keeps nothing across a restart (docs/semantics.md §2.5 says which).
    public var mark: ServiceMark? { nil }
    public mutating func resume(from marks: [ServiceMark], replaying fixes: [Fix]) {}
}
