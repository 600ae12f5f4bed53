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

    /// - Parameter silence: what a silence between fixes means to the services (docs/semantics.md §2.6).
    public init(_ subscription: ServiceSubscription, silence: SilenceRule = .standard) {
        self.subscription = subscription
        self.gate = subscription.makeGate()
        self.services = subscription.makeServices(silence: silence)
    }

    /// Fixes admitted by the gate so far.
    public var accepted: Int { gate.accepted }
    /// Fixes the gate dropped so far, by reason.
    public var dropped: [DropReason: Int] { gate.dropped }

    /// - Parameter receivedAt: when a live source received the fix (the gate's future rule);
    ///   `nil` for recorded tracks.
    public mutating func process(_ fix: Fix, receivedAt: Timestamp? = nil) -> Outcome {
        if let reason = gate.admit(fix, receivedAt: receivedAt) { return .dropped(reason) }
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

    /// What of the services' state must survive a restart, in service order.
    public var marks: [ServiceMark] { services.compactMap(\.mark) }

    /// Continues from `marks` saved by an earlier run, with the stored fixes since
    /// `marks.replayFrom` (docs/semantics.md §2.5). The fixes go through a fresh gate, which
    /// then carries on as this pipeline's gate, so the next live fix is judged against the last
    /// stored one; what the replay emits was delivered before and is dropped.
    public mutating func resume(from marks: [ServiceMark], replaying fixes: [Fix]) {
        var replayGate = subscription.makeGate()
        let admitted = fixes.filter { replayGate.admit($0) == nil }
        if !admitted.isEmpty { gate = replayGate.uncounted }
        for index in services.indices { services[index].resume(from: marks, replaying: admitted) }
    }

    private func authorized(_ records: [LocationRecord]) -> [LocationRecord] {
        subscription.isApproximate ? records.map { $0.coarsened() } : records
    }
}
