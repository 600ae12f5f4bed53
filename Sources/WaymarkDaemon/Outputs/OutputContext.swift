import Logging
import WaymarkCore
import WaymarkOutputs
import WaymarkStore

/// What output channels look up while they deliver: a device's user (OwnTracks' topics), its
/// fix at an event, who is inside a region; off the cooperative pool, failures logged.
struct OutputContext: Sendable {
    let store: WaymarkStore
    let directory: DeviceDirectory
    let activity: OutputActivity
    /// The CloudEvents `source`, and the origin OwnTracks messages carry.
    let source: String
    /// Where deliveries' bytes and connections are counted for the network radio's energy.
    var network: NetworkMeter? = nil
    let logger: Logger

    /// The device's user; a device the store does not know is its own user, as `devices add`
    /// defaults it.
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
}
