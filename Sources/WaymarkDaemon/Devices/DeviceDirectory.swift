import Synchronization
import WaymarkDevices
import WaymarkStore

/// The devices the network listener authenticates against: the whole devices table, read from
/// the store at most once per `lifetime` while requests come, so a busy listener does not read
/// SQLite for every request (a read was about a tenth of a request's CPU in
/// `Benchmarks/http_ingest.py`). Changes made through the daemon (`/v1/devices`,
/// `waymark devices …` while it runs) clear it at once; a change written straight into the
/// database (`--db` while the daemon runs) takes effect within `lifetime`.
///
/// Why the whole table rather than the devices asked for: a name or secret that is no device's
/// is answered from memory exactly as one that is (docs/security.md, "Timing"). Remembering only
/// hits made an unknown name cost a store read, and answer measurably later than a known one,
/// which told a prober which names exist. Remembering misses instead would let anyone fill
/// memory with made-up names. A table of devices is small (a thousand phones is ~200 KB).
final class DeviceDirectory: Sendable {
    private struct Snapshot: Sendable {
        var byName: [String: Device] = [:]
        var bySecret: [DeviceSecret.Hash: Device] = [:]
        var expires: ContinuousClock.Instant

        init(_ devices: [Device], expires: ContinuousClock.Instant) {
            self.expires = expires
            for device in devices {
                byName[device.name] = device
                if let hash = device.secretHash { bySecret[hash] = device }
            }
        }
    }

    private struct State {
        var snapshot: Snapshot?
        /// The read in progress, which every request arriving meanwhile waits for.
        var loading: Task<Snapshot, any Error>?
        /// Bumped by `clear`: a read begun before it may hold what was cleared, and is not kept.
        var generation = 0
    }

    private let store: WaymarkStore
    private let lifetime: Duration
    private let state = Mutex(State())

    init(store: WaymarkStore, lifetime: Duration = .seconds(5)) {
        self.store = store
        self.lifetime = lifetime
    }

    func device(named name: String) async throws -> Device? {
        try await current().byName[name]
    }

    func device(withSecret hash: DeviceSecret.Hash) async throws -> Device? {
        try await current().bySecret[hash]
    }

    /// Forgets everything (a device was added, removed or given a new secret).
    func clear() {
        state.withLock { state in
            state.snapshot = nil
            state.loading = nil
            state.generation += 1
        }
    }

    private func current() async throws -> Snapshot {
        let now = ContinuousClock.now
        enum Found { case ready(Snapshot), loading(Task<Snapshot, any Error>, generation: Int) }
        let found = state.withLock { state -> Found in
            if let snapshot = state.snapshot, snapshot.expires > now { return .ready(snapshot) }
            if let loading = state.loading { return .loading(loading, generation: state.generation) }
            let (store, lifetime) = (self.store, self.lifetime)
            let loading = Task { Snapshot(try await store.offPool { try $0.devices() }, expires: .now + lifetime) }
            state.loading = loading
            return .loading(loading, generation: state.generation)
        }
        let (task, generation): (Task<Snapshot, any Error>, Int)
        switch found {
        case .ready(let snapshot): return snapshot
        case .loading(let loading, let loadingGeneration): (task, generation) = (loading, loadingGeneration)
        }
        let snapshot: Snapshot
        do {
            snapshot = try await task.value
        } catch {
            state.withLock { state in if state.generation == generation { state.loading = nil } }
            throw error
        }
        state.withLock { state in
            guard state.generation == generation else { return }
            state.loading = nil
            state.snapshot = snapshot
        }
        return snapshot
    }
}
