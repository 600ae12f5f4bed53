import WaymarkCore

/// One location-service subscription in `GET /v1/status`: what it runs and what it did since
/// the daemon started.
public struct SubscriptionStatus: Sendable, Equatable {
    public var name: String
    /// `standard`, `significantChange`, `visits`, `timeline`, in that order, as asked for.
    public var services: [String]
    /// `precise` or `approximate`.
    public var precision: String
    /// Fixes its validation gate admitted.
    public var accepted: Int
    /// Fixes its gate dropped, by reason (`timeBackwards`, `inaccurate`, …).
    public var dropped: [String: Int]
    /// Records its services emitted, by kind (`location`, `significantChange`, `visit`, …).
    public var events: [String: Int]

    public init(
        name: String, services: [String], precision: String, accepted: Int, dropped: [String: Int], events: [String: Int]
    ) {
        self.name = name
        self.services = services
        self.precision = precision
        self.accepted = accepted
        self.dropped = dropped
        self.events = events
    }

    /// `{"name":…,"services":[…],"precision":…,"accepted":N,"dropped":{…},"events":{…}}`, keys sorted.
    public var json: String {
        var w = JSONObjectWriter()
        w.add("name", name)
        w.add("services", services)
        w.add("precision", precision)
        w.add("accepted", accepted)
        w.addRaw("dropped", Self.object(dropped))
        w.addRaw("events", Self.object(events))
        return w.object
    }

    static func object(_ counts: [String: Int]) -> String {
        var w = JSONObjectWriter()
        for (key, value) in counts.sorted(by: { $0.key < $1.key }) { w.add(key, value) }
        return w.object
    }
}
