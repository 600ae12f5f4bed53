import WaymarkCore
import WaymarkRegions

/// A day of a timeline drawn as an overlay (`waymark export --timeline`): the places stayed at
/// as named points, the trips between them as lines in their travel mode's colour. Built by the
/// timeline job from its stays and trips; written by `DayOverlayGPX` and `DayOverlayGeoJSON`.
public struct DayOverlay: Sendable, Equatable {
    /// A place stayed at.
    public struct Stop: Sendable, Equatable {
        /// What a person reads: the place's name (`Home`, `Potsdam, Brandenburg, Germany`).
        public var name: String
        /// One sentence: when, in local time, and how long.
        public var description: String
        public var coordinate: Coordinate
        public var arrival: Timestamp
        public var departure: Timestamp
        /// Still there at the end of the data.
        public var open: Bool

        public init(name: String, description: String, coordinate: Coordinate, arrival: Timestamp, departure: Timestamp, open: Bool = false) {
            self.name = name
            self.description = description
            self.coordinate = coordinate
            self.arrival = arrival
            self.departure = departure
            self.open = open
        }
    }

    /// A trip between two stops.
    public struct Leg: Sendable, Equatable {
        /// `Cycling to Office`.
        public var name: String
        /// One sentence: distance, duration, speeds, local times.
        public var description: String
        /// The travel mode's name (`cycling`), the GPX `type` and GeoJSON `mode`.
        public var mode: String
        public var colour: PictureColor
        public var start: Timestamp
        public var end: Timestamp
        /// The trip's line, at least one point.
        public var path: [Coordinate]
        /// Metres, seconds, metres per second: the trip's figures as properties.
        public var distance: Double
        public var duration: Double
        public var open: Bool

        public init(
            name: String, description: String, mode: String, colour: PictureColor, start: Timestamp, end: Timestamp, path: [Coordinate],
            distance: Double, duration: Double, open: Bool = false
        ) {
            self.name = name
            self.description = description
            self.mode = mode
            self.colour = colour
            self.start = start
            self.end = end
            self.path = path
            self.distance = distance
            self.duration = duration
            self.open = open
        }
    }

    /// The document's name, e.g. `phone, Saturday 2 May 2026`.
    public var name: String
    /// Credit owed for the names shown (GeoNames' CC BY), written into the document; nil for none.
    public var attribution: String?
    public var stops: [Stop]
    public var legs: [Leg]

    public init(name: String, stops: [Stop], legs: [Leg], attribution: String? = nil) {
        self.name = name
        self.attribution = attribution
        self.stops = stops
        self.legs = legs
    }

    /// The box around every stop and trip, the short way round the Earth; nil when empty.
    var bounds: BoundingBox? {
        var accumulator = TrackBoundsAccumulator()
        for stop in stops { accumulator.add(stop.coordinate) }
        for leg in legs { for coordinate in leg.path { accumulator.add(coordinate) } }
        return accumulator.bounds
    }
}
