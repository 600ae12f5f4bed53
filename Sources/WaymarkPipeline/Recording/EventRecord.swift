import WaymarkCore
import WaymarkRegions

/// What the history keeps of an event, and so what outputs and the live stream deliver: the
/// JSON record `waymark replay` prints, with copies of the fields a query or a filter needs.
/// The single daemon stores it in SQLite, a fleet worker in PostgreSQL; both build it here.
public struct EventRecord: Sendable, Equatable {
    public var time: Timestamp
    public var kind: EventKind
    /// The region's identifier (region and beacon transitions); the new place's, for a place change.
    public var region: String?
    public var transition: RegionTransition.Kind?
    public var coordinate: Coordinate?
    /// One compact JSON object, byte for byte what `waymark replay` prints for the event (a
    /// configured subscription's records end with `"subscription":NAME`).
    public var record: String

    public init(
        time: Timestamp, kind: EventKind, region: String? = nil, transition: RegionTransition.Kind? = nil, coordinate: Coordinate? = nil,
        record: String
    ) {
        self.time = time
        self.kind = kind
        self.region = region
        self.transition = transition
        self.coordinate = coordinate
        self.record = record
    }
}

/// The recording policy (docs/semantics.md §5): the one rule, for every runtime, of what of a
/// step is kept. Outputs and the live stream deliver what is kept; handlers get events by their
/// own subscriptions (`HandlerRouter`), whether kept or not.
public enum Recording: Sendable, Equatable {
    /// Kept as an event: region and beacon transitions, place changes, accessories, and
    /// configured subscriptions' service records.
    case event(EventRecord)
    /// Kept as a gap in reception, beside the fixes.
    case gap(time: Timestamp, reason: String)
    /// Not kept: the regions' initial state (not a transition: no event at registration,
    /// docs/semantics.md §3), handlers' own service records and rangings (theirs alone), and
    /// region events of untimed fixes (a history is ordered by time).
    case none
}

extension LocationEvent {
    /// What the history keeps of this event.
    public var recording: Recording {
        switch self {
        case .gap(let time, let reason):
            return .gap(time: time, reason: reason)
        case .state, .ranging, .service(_, .handler):
            return .none
        case .region, .place, .beacon, .accessory, .service(_, .subscription):
            guard let time else { return .none }
            // A subscription's record carries its name; the others are the pipeline's own JSON.
            let record: String
            if case .service(var service, .subscription(let name)) = self {
                service.subscription = name
                record = service.json
            } else {
                record = self.record
            }
            return .event(
                EventRecord(
                    time: time, kind: kind, region: region, transition: transition.flatMap(RegionTransition.Kind.init(rawValue:)),
                    coordinate: coordinate, record: record))
        }
    }
}
