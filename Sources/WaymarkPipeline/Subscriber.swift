import WaymarkServices

/// One consumer of a device's location services (docs/semantics.md §2): the services it asked
/// for, run behind its own validation gate, and the beacon regions it ranges.
///
/// Region and beacon *monitoring* is shared by every subscriber (one state per device); which
/// subscriber is told of which transition is the router's business, not the pipeline's.
public struct Subscriber: Sendable, Equatable {
    /// Which beacons a subscriber ranges (docs/semantics.md §3).
    public enum Ranging: Sendable, Equatable {
        /// The beacons of every monitored beacon region, or every iBeacon when there are none
        /// (`waymark replay --ranging`).
        case monitoredRegions
        /// The beacons of these beacon regions only (a handler's `--ranging ID …`); ranging
        /// stops when none of them is monitored.
        case regions(Set<String>)
    }

    public var id: SubscriberID
    /// The location services, gate and authorization; nil when it asked for none.
    public var services: ServiceSubscription?
    /// nil: no ranging. The caller leaves it nil when authorization forbids beacon monitoring.
    public var ranging: Ranging?

    public init(id: SubscriberID, services: ServiceSubscription? = nil, ranging: Ranging? = nil) {
        self.id = id
        self.services = services.flatMap { $0.isEmpty ? nil : $0 }
        self.ranging = ranging
    }
}
