import WaymarkCore

/// A stay someone else reported: a Google `placeVisit` (or the person's own label written in that
/// shape) that `waymark import` stored as a `reportedVisit` event (docs/import.md).
public struct ReportedStay: Sendable, Equatable {
    public var arrival: Timestamp
    public var departure: Timestamp
    /// Where the visit was, when the file said.
    public var centre: Coordinate?
    /// The place's name, when the file gave one.
    public var name: String?

    public init(arrival: Timestamp, departure: Timestamp, centre: Coordinate?, name: String?) {
        self.arrival = arrival
        self.departure = departure
        self.centre = centre
        self.name = name
    }
}
