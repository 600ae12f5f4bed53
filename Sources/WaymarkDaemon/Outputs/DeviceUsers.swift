import Synchronization
import WaymarkStore

/// Each device's user, for OwnTracks topics (`owntracks/USER/DEVICE`): read from the store once
/// per device (off the cooperative pool) and remembered; a device the store does not know is its
/// own user, as `waymark devices add` defaults it.
final class DeviceUsers: Sendable {
    private let store: WaymarkStore
    private let known = Mutex<[String: String]>([:])

    init(store: WaymarkStore) { self.store = store }

    func user(of device: String) async -> String {
        if let user = known.withLock({ $0[device] }) { return user }
        let user = (try? await store.offPool { try $0.device(named: device)?.user }) ?? nil
        known.withLock { $0[device] = user ?? device }
        return user ?? device
    }
}
