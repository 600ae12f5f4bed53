import Logging
import WaymarkCore
import WaymarkDelivery
import WaymarkOutputs
import WaymarkStore

/// The single daemon's answers to outputs' lookups: its store, off the cooperative pool, and the
/// listener's cache of devices.
struct StoreOutputLookups: OutputLookups {
    let store: WaymarkStore
    let directory: DeviceDirectory
    let logger: Logger

    func user(of device: String) async -> String {
        ((try? await directory.device(named: device)) ?? nil)?.user ?? device
    }

    func fix(of device: String, atOrBefore time: Timestamp) async -> OutputFix? {
        do {
            return try await store.offPool { try $0.fix(of: device, atOrBefore: time) }
        } catch {
            logger.error("Cannot read a device's fix for an output", metadata: ["device": "\(device)", "error": "\(error)"])
            return nil
        }
    }

    func devicesInside(region: String) async throws -> [String] {
        try await store.offPool { try $0.devicesInside(region: region) }
    }

    func presenceRegions() async throws -> [(identifier: String, name: String?, beacon: Bool)] {
        try await store.offPool { try $0.presenceRegions() }
    }
}
