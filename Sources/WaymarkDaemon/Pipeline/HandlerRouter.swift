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
    }

    /// One event for one handler: the launch reason is its kind.
    struct Delivery: Sendable {
        var handler: String
        var time: Timestamp
        var kind: String
        var record: String
    }

    private(set) var routes: [Route] = []

    init(_ registrations: [HandlerRegistration] = []) {
        routes = registrations.sorted { $0.name < $1.name }.map { registration in
            let subscription = registration.subscription
            let services = subscription.services.isEmpty
                ? nil : SubscriptionPipeline(subscription.services.subscription(precision: subscription.authorization.precision))
            return Route(name: registration.name, subscription: subscription, services: services)
        }
    }

    var isEmpty: Bool { routes.isEmpty }

    /// Keeps the running service state of handlers whose subscription did not change.
    mutating func update(_ registrations: [HandlerRegistration]) {
        let fresh = HandlerRouter(registrations)
        routes = fresh.routes.map { route in
            if let old = routes.first(where: { $0.name == route.name && $0.subscription == route.subscription }) { return old }
            return route
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
}
