import WaymarkCore

/// An event as an output reads it from the history: its row id (the order outputs deliver in)
/// and the record `waymark replay` prints for it.
public struct OutputEvent: Sendable, Equatable {
    /// The history row id: increasing in commit order.
    public var sequence: Int64
    public var device: String
    public var time: Timestamp
    public var kind: EventKind
    public var region: String?
    /// `enter`, `exit` or `dwell` for region and beacon events.
    public var transition: String?
    /// One JSON object, as `waymark replay` prints it (without the device).
    public var record: String
    /// Where it happened, when the event has a position.
    public var coordinate: Coordinate?

    public init(
        sequence: Int64, device: String, time: Timestamp, kind: EventKind, region: String? = nil, transition: String? = nil,
        record: String, coordinate: Coordinate? = nil
    ) {
        self.coordinate = coordinate
        self.sequence = sequence
        self.device = device
        self.time = time
        self.kind = kind
        self.region = region
        self.transition = transition
        self.record = record
    }
}
