import Synchronization
import WaymarkDevices
import WaymarkStore

/// The devices the network listener authenticates against, read from the store and remembered
/// for `lifetime`, so a busy listener does not read SQLite for every request (a read was about a
/// tenth of a request's CPU in `Benchmarks/http_ingest.py`). Changes made through the daemon
/// (`/v1/devices`, `waymark devices …` while it runs) clear it at once; a change written
/// straight into the database (`--db` while the daemon runs) takes effect within `lifetime`.
/// Only devices found are remembered: a wrong secret always costs a store read, never memory.
final class DeviceDirectory: Sendable {
    private enum Key: Hashable {
        case name(String)
        /// The secret's hash: finding a device by it is no easier than finding a secret by its hash.
        case secret(DeviceSecret.Hash)
    }

    private struct Entry {
        var device: Device
        var expires: ContinuousClock.Instant
    }

    private let store: WaymarkStore
    private let lifetime: Duration
    private let entries = Mutex<[Key: Entry]>([:])
    /// More entries than this and the directory starts afresh (a bound, not a policy).
    private static let capacity = 100_000

    init(store: WaymarkStore, lifetime: Duration = .seconds(5)) {
        self.store = store
        self.lifetime = lifetime
    }

    func device(named name: String) async throws -> Device? {
        try await lookUp(.name(name)) { try $0.device(named: name) }
    }

    func device(withSecret hash: DeviceSecret.Hash) async throws -> Device? {
        try await lookUp(.secret(hash)) { try $0.device(withSecret: hash) }
    }

    /// Forgets everything (a device was added, removed or given a new secret).
    func clear() {
        entries.withLock { $0.removeAll() }
    }

    private func lookUp(_ key: Key, _ read: @escaping @Sendable (WaymarkStore) throws -> Device?) async throws -> Device? {
        let now = ContinuousClock.now
        if let entry = entries.withLock({ $0[key] }), entry.expires > now { return entry.device }
        guard let device = try await store.offPool(read) else { return nil }
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[key] = Entry(device: device, expires: now + lifetime)
        }
        return device
    }
}
