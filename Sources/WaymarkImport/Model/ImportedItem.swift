import WaymarkCore

/// One thing a history file holds, in the file's order: a position, or what the file's own
/// software concluded about a stretch of time (Google's visits and activity segments). Waymark
/// computes its own visits from the fixes; the reported ones are kept beside them for comparison.
public enum ImportedItem: Sendable, Equatable {
    case fix(Fix)
    case reportedVisit(ReportedVisit)
    case reportedActivity(ReportedActivity)

    /// The item's time (a visit's or activity's start), when it has one.
    public var time: Timestamp? {
        switch self {
        case .fix(let fix): fix.time
        case .reportedVisit(let visit): visit.start
        case .reportedActivity(let activity): activity.start
        }
    }
}

/// A stay another application recorded: Google's `placeVisit`, or a `visit` segment.
public struct ReportedVisit: Sendable, Equatable {
    public var start: Timestamp
    public var end: Timestamp?
    /// The place's position (its centre), when the file gives one.
    public var coordinate: Coordinate?
    /// The place as the file names it: a name, an address, an identifier (Google's `placeId`),
    /// a semantic type (`HOME`, `WORK`, `INFERRED_HOME`…). Any may be missing.
    public var name: String?
    public var address: String?
    public var placeID: String?
    public var semanticType: String?
    /// The file's confidence in the visit or its place, 0…1, when given.
    public var probability: Double?

    public init(
        start: Timestamp, end: Timestamp? = nil, coordinate: Coordinate? = nil, name: String? = nil, address: String? = nil,
        placeID: String? = nil, semanticType: String? = nil, probability: Double? = nil
    ) {
        self.start = start
        self.end = end
        self.coordinate = coordinate
        self.name = name
        self.address = address
        self.placeID = placeID
        self.semanticType = semanticType
        self.probability = probability
    }
}

/// A movement another application recorded between two places: Google's `activitySegment` or
/// an `activity` segment.
public struct ReportedActivity: Sendable, Equatable {
    public var start: Timestamp
    public var end: Timestamp?
    public var from: Coordinate?
    public var to: Coordinate?
    /// The mode as the file names it (`CYCLING`, `IN_PASSENGER_VEHICLE`, `walking`…), unchanged.
    public var mode: String?
    /// The distance the file gives, in metres.
    public var distance: Double?
    public var probability: Double?

    public init(
        start: Timestamp, end: Timestamp? = nil, from: Coordinate? = nil, to: Coordinate? = nil, mode: String? = nil,
        distance: Double? = nil, probability: Double? = nil
    ) {
        self.start = start
        self.end = end
        self.from = from
        self.to = to
        self.mode = mode
        self.distance = distance
        self.probability = probability
    }
}
