import WaymarkBeacons
import WaymarkCore
import WaymarkHandlers
import WaymarkRegions
import WaymarkServices

/// Which handler gets which event: region transitions by the handler's region list (never
/// with approximate authorization), location-service records from each handler's own
/// subscription pipeline (its own gate, filters and coarsening).
struct HandlerRouter: Sendable {
    struct Route: Sendable {
        let name: String
        let subscription: HandlerSubscription
        var services: SubscriptionPipeline?
        /// Ranges the beacons of its `ranging` regions.
        var ranger: BeaconRanger?
    }

    /// One event for one handler: the launch reason is its kind.
    struct Delivery: Sendable {
        var handler: String
        var time: Timestamp
        var kind: String
        var record: String
    }

    private(set) var routes: [Route] = []

    /// Routes for `registrations`; `beaconRegions` give the identities ranging subscriptions match.
    init(_ registrations: [HandlerRegistration] = [], beaconRegions: [Region] = []) {
        routes = registrations.sorted { $0.name < $1.name }.map { registration in
            let subscription = registration.subscription
            let services = subscription.services.isEmpty
                ? nil : SubscriptionPipeline(subscription.services.subscription(precision: subscription.authorization.precision))
            return Route(
                name: registration.name, subscription: subscription, services: services,
                ranger: Self.ranger(for: subscription, beaconRegions: beaconRegions))
        }
    }

    /// Ranges the identities of the subscription's `ranging` regions; nil without any, or with
    /// approximate authorization.
    private static func ranger(for subscription: HandlerSubscription, beaconRegions: [Region]) -> BeaconRanger? {
        let identities = beaconRegions.filter { subscription.ranging.contains($0.identifier) }.compactMap(\.beacon)
        return identities.isEmpty || !subscription.authorization.allowsBeaconMonitoring ? nil : BeaconRanger(constraints: identities)
    }

    var isEmpty: Bool { routes.isEmpty }

    /// Handlers whose subscriptions need the GNSS: regions or location services.
    var gnssHandlers: [String] {
        routes.filter { $0.subscription.monitorsRegions || !$0.subscription.services.isEmpty }.map(\.name)
    }

    /// Handlers whose subscriptions need the Bluetooth scan: beacon regions or ranging.
    var bluetoothHandlers: [String] { routes.filter { $0.subscription.monitorsBeacons }.map(\.name) }

    /// Whether some handler subscribes to geographic regions.
    var monitorsRegions: Bool { routes.contains { $0.subscription.monitorsRegions } }

    /// The location services handlers run (the GNSS schedule needs their circles).
    var serviceSubscriptions: [ServiceSubscription] { routes.compactMap { $0.services?.subscription } }

    /// Keeps the running service state of handlers whose subscription did not change.
    mutating func update(_ registrations: [HandlerRegistration], beaconRegions: [Region]) {
        let fresh = HandlerRouter(registrations, beaconRegions: beaconRegions)
        routes = fresh.routes.map { route in
            guard var old = routes.first(where: { $0.name == route.name && $0.subscription == route.subscription }) else { return route }
            if old.ranger?.constraints != route.ranger?.constraints { old.ranger = route.ranger }
            return old
        }
    }

    /// Beacon regions were imported, replaced or removed: each ranger follows the identities its
    /// `ranging` regions have now. One whose identities did not change keeps its sightings.
    mutating func beaconRegionsChanged(_ beaconRegions: [Region]) {
        for index in routes.indices {
            let fresh = Self.ranger(for: routes[index].subscription, beaconRegions: beaconRegions)
            if fresh?.constraints != routes[index].ranger?.constraints { routes[index].ranger = fresh }
        }
    }

    mutating func deliveries(for fix: Fix) -> [Delivery] {
        var deliveries: [Delivery] = []
        for index in routes.indices where routes[index].services != nil {
            guard case .accepted(let records) = routes[index].services!.process(fix) else { continue }
            for record in records {
                deliveries.append(Delivery(handler: routes[index].name, time: record.time, kind: record.kind, record: record.json))
            }
        }
        return deliveries
    }

    func deliveries(for transition: RegionTransition, json: String) -> [Delivery] {
        guard let time = transition.fix.time else { return [] }
        return routes.filter { $0.subscription.wantsRegion(transition.identifier) }.map {
            Delivery(handler: $0.name, time: time, kind: "region", record: json)
        }
    }

    func deliveries(for transition: BeaconTransition, json: String) -> [Delivery] {
        routes.filter { $0.subscription.wantsBeacon(transition.identifier) }.map {
            Delivery(handler: $0.name, time: transition.time, kind: "beacon", record: json)
        }
    }

    /// Ranging reports due before `advertisement` for the handlers that range, then the
    /// advertisement taken into account.
    mutating func deliveries(for advertisement: BeaconAdvertisement) -> [Delivery] {
        var deliveries: [Delivery] = []
        for index in routes.indices where routes[index].ranger != nil {
            let name = routes[index].name
            routes[index].ranger!.rangings(before: advertisement.time) { instant, beacons in
                deliveries.append(Delivery(handler: name, time: instant, kind: "ranging", record: BeaconRecords.ranging(time: instant, beacons: beacons)))
            }
            routes[index].ranger!.record(advertisement)
        }
        return deliveries
    }
}
