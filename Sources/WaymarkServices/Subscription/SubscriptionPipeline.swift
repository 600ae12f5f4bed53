import WaymarkCore

/// One subscription's path for fixes: its validation gate, then each of its services, then its
/// authorization (approximate coordinates coarsened). Replay and the daemon run exactly this.
/// Pure and single-threaded: fixes in arrival order, records out.
public struct SubscriptionPipeline: Sendable {
    public let subscription: ServiceSubscription
    private var gate: ValidationGate
    private var services: [any LocationService]

    /// What became of one fix.
    public enum Outcome: Sendable, Equatable {
        /// The gate refused it, for this reason; no service saw it.
        case dropped(DropReason)
        /// The gate admitted it; the services emitted these records (often none).
        case accepted([LocationRecord])
    }

    public init(_ subscription: ServiceSubscription) {
        self.subscription = subscription
        self.gate = subscription.makeGate()
        self.services = subscription.makeServices()
    }

    /// Fixes admitted by the gate so far.
    public var accepted: Int { gate.accepted }
    /// Fixes the gate dropped so far, by reason.
    public var dropped: [DropReason: Int] { gate.dropped }

    public mutating func process(_ fix: Fix) -> Outcome {
        if let reason = gate.admit(fix) { return .dropped(reason) }
        var records: [LocationRecord] = []
        for index in services.indices { records += services[index].process(fix) }
        return .accepted(authorized(records))
    }

    /// What the services still hold at the end of the input (a deferred batch).
    public mutating func finish() -> [LocationRecord] {
        var records: [LocationRecord] = []
        for index in services.indices { records += services[index].finish() }
        return authorized(records)
    }

    private func authorized(_ records: [LocationRecord]) -> [LocationRecord] {
        subscription.isApproximate ? records.map { $0.coarsened() } : records
    }
}
