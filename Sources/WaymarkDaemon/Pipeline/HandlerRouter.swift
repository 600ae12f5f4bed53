import WaymarkBeacons
import WaymarkCore
import WaymarkHandlers
import WaymarkPipeline
import WaymarkRegions
import WaymarkServices

/// Which handler gets which event. Each handler is a subscriber of the device pipeline (its own
/// gate, services, coarsening and ranger run there); the router turns the pipeline's events into
/// deliveries: region and beacon transitions by the handler's region lists (never with
/// approximate authorization), service and ranging records to the handler they were made for.
struct HandlerRouter: Sendable {
    /// One event for one handler: the launch reason is its kind.
    struct Delivery: Sendable, Equatable {
        var handler: String
        var time: Timestamp
        var kind: EventKind
        var record: String
    }

    /// The registrations in force, by name.
    private(set) var registrations: [HandlerRegistration] = []
    private var byName: [String: HandlerSubscription] = [:]

    init(_ registrations: [HandlerRegistration] = []) {
        self.registrations = registrations.sorted { $0.name < $1.name }
        byName = Dictionary(self.registrations.map { ($0.name, $0.subscription) }, uniquingKeysWith: { a, _ in a })
    }

    var isEmpty: Bool { registrations.isEmpty }

    /// The handlers as subscribers of the device pipeline, in name order.
    var subscribers: [Subscriber] {
        registrations.map { registration in
            let subscription = registration.subscription
            let services = subscription.services.isEmpty
                ? nil : subscription.services.subscription(precision: subscription.authorization.precision)
            let ranges = !subscription.ranging.isEmpty && subscription.authorization.allowsBeaconMonitoring
            return Subscriber(
                id: .handler(registration.name), services: services, ranging: ranges ? .regions(Set(subscription.ranging)) : nil)
        }
    }

    /// Handlers whose subscriptions need the GNSS: regions or location services.
    var gnssHandlers: [String] {
        registrations.filter { $0.subscription.monitorsRegions || !$0.subscription.services.isEmpty }.map(\.name)
    }

    /// Handlers whose subscriptions need the Bluetooth scan: beacon regions or ranging.
    var bluetoothHandlers: [String] { registrations.filter { $0.subscription.monitorsBeacons }.map(\.name) }

    /// Whether some handler subscribes to geographic regions.
    var monitorsRegions: Bool { registrations.contains { $0.subscription.monitorsRegions } }

    /// The location services handlers run (the GNSS schedule needs their circles).
    var serviceSubscriptions: [ServiceSubscription] { subscribers.compactMap(\.services) }

    /// Who is given `event`, with the record they are given.
    func deliveries(for event: LocationEvent) -> [Delivery] {
        guard !registrations.isEmpty, let time = event.time else { return [] }
        let handlers: [String]
        switch event {
        case .region(let transition):
            handlers = registrations.filter { $0.subscription.wantsRegion(transition.identifier) }.map(\.name)
        case .beacon(let transition):
            handlers = registrations.filter { $0.subscription.wantsBeacon(transition.identifier) }.map(\.name)
        case .accessory:
            handlers = registrations.filter { $0.subscription.accessory }.map(\.name)
        case .service(_, .handler(let name)), .ranging(_, _, .handler(let name)):
            handlers = byName[name] == nil ? [] : [name]
        default:
            handlers = []
        }
        guard !handlers.isEmpty else { return [] }
        let record = event.record  // built once, however many handlers are given it
        return handlers.map { Delivery(handler: $0, time: time, kind: event.kind, record: record) }
    }
}
