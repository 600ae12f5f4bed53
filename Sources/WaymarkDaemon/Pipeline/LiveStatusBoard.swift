import Synchronization
import WaymarkAPI
import WaymarkCore

/// What the daemon is doing now, readable from any thread without waiting for the pipeline:
/// the API's `/v1/status` and `/v1/fixes/last` read it while the pipeline is busy ingesting,
/// and counters are added from the pipeline and from the store writer's commits alike.
final class LiveStatusBoard: Sendable {
    /// The pipeline's latest published view.
    struct Snapshot: Sendable {
        var source: LivePipeline.SourceStatus
        var counters: [String: Int] = [:]
        var lastFix: HistoryEntry?
        var subscriptions: [SubscriptionStatus] = []
        var beaconSource: DaemonStatus.BeaconSource?
        var regionCount = 0
        /// The ledger and the sampler as last published; status prices them at read time.
        var energy: LiveEnergy
        var sampler: GNSSSampler
        var samples = false
    }

    private let state: Mutex<Snapshot>

    init(_ initial: Snapshot) { state = Mutex(initial) }

    /// The current view.
    var snapshot: Snapshot { state.withLock { $0 } }

    /// Replaces what the pipeline owns; counters and the last fix are kept (others add to them).
    func publish(_ update: (inout Snapshot) -> Void) {
        state.withLock { update(&$0) }
    }

    func count(_ name: String, by amount: Int = 1) {
        state.withLock { $0.counters[name, default: 0] += amount }
    }

    /// Adds several counts at once (one lock for a whole batch).
    func count(_ amounts: [String: Int]) {
        guard !amounts.isEmpty else { return }
        state.withLock { snapshot in
            for (name, amount) in amounts { snapshot.counters[name, default: 0] += amount }
        }
    }

    func recordedFix(_ entry: HistoryEntry) {
        state.withLock { $0.lastFix = entry }
    }
}
