import Foundation
import WaymarkDevices
import WaymarkStore

extension WaymarkStore {
    /// `DaemonBackend.fixDays` over a daemon's store, off the cooperative pool: the days, or
    /// `APIError.noDevice` for a device without fixes that is neither `local` nor registered.
    public func knownDeviceFixDays(device: String, timeZone: TimeZone) async throws -> [FixDay] {
        try await offPool { store in
            let days = try store.fixDays(device: device, timeZone: timeZone)
            guard days.isEmpty, device != Device.localName, try store.device(named: device) == nil else { return days }
            throw APIError.noDevice(device)
        }
    }
}
