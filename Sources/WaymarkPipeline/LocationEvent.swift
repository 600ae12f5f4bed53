import WaymarkBeacons
import WaymarkCore
import WaymarkRegions
import WaymarkServices

/// Everything a device's pipeline reports, typed. JSON exists only at the edges
/// (`LocationEvent+Record.swift`): `waymark replay` prints it, the daemon stores and streams it,
/// handlers receive it.
public enum LocationEvent: Sendable, Equatable {
    /// The first admitted fix established the regions' state (not a transition:
    /// docs/semantics.md §3, no event at registration); `inside` holds the identifiers.
    case state(fix: Fix, inside: [String])
    /// A confirmed geographic region transition (enter, exit, dwell).
    case region(RegionTransition)
    /// The device's place changed (docs/semantics.md §3.7): the best-ranked geographic region it
    /// is confirmed inside, nil for none. `fix` is the crossing of the transition that moved it,
    /// confirmed at `confirmedAt` (nil: at `fix`, the establishing fix or the first after new regions).
    case place(fix: Fix, place: String?, previous: String?, confirmedAt: Timestamp?)
    /// A beacon region transition (enter, exit).
    case beacon(BeaconTransition)
    /// A location service's record (location, significant change, visit, paused, resumed)
    /// for one subscriber.
    case service(LocationRecord, subscriber: SubscriberID)
    /// Ranged beacons at one instant, for one subscriber.
    case ranging(time: Timestamp, beacons: [RangedBeacon], subscriber: SubscriberID)
    /// No position at `time` (recorded, never delivered to a handler).
    case gap(time: Timestamp, reason: String)
    /// A receiver, adapter or fix came or went.
    case accessory(AccessoryEvent)

    /// The event's kind: the `kind` member of its JSON record.
    public typealias Kind = EventKind

    public var kind: Kind {
        switch self {
        case .state: .state
        case .region: .region
        case .place: .place
        case .beacon: .beacon
        case .service(let record, _): record.kind.eventKind
        case .ranging: .ranging
        case .gap: .gap
        case .accessory: .accessory
        }
    }

    /// When it happened; nil only for region events of untimed fixes (a GPX track without times).
    public var time: Timestamp? {
        switch self {
        case .state(let fix, _), .place(let fix, _, _, _): fix.time
        case .region(let transition): transition.fix.time
        case .beacon(let transition): transition.time
        case .service(let record, _): record.time
        case .ranging(let time, _, _), .gap(let time, _): time
        case .accessory(let event): event.time
        }
    }

    /// Where it happened, for events with a position.
    public var coordinate: Coordinate? {
        switch self {
        case .state(let fix, _), .place(let fix, _, _, _): fix.coordinate
        case .region(let transition): transition.fix.coordinate
        case .service(let record, _): record.coordinate
        case .beacon, .ranging, .gap, .accessory: nil
        }
    }

    /// The subscriber a service or ranging record is for; nil for events every subscriber shares.
    public var subscriber: SubscriberID? {
        switch self {
        case .service(_, let subscriber), .ranging(_, _, let subscriber): subscriber
        default: nil
        }
    }

    /// The region's identifier, for region and beacon transitions; the new place's, for a place
    /// change to a region.
    public var region: String? {
        switch self {
        case .place(_, let place, _, _): place
        case .region(let transition): transition.identifier
        case .beacon(let transition): transition.identifier
        default: nil
        }
    }

    /// `enter`, `exit` or `dwell`, for region and beacon transitions.
    public var transition: String? {
        switch self {
        case .region(let transition): transition.kind.rawValue
        case .beacon(let transition): transition.kind.rawValue
        default: nil
        }
    }
}
