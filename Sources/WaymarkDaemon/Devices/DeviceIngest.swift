import Foundation
import WaymarkAPI
import WaymarkCore
import WaymarkDevices
import WaymarkPipeline
import WaymarkSources
import WaymarkSteering
import WaymarkStore

/// The network listener's view of the daemon: devices from the store (off the cooperative
/// pool), fixes into each device's pipeline through the fleet.
struct DeviceIngest: DeviceIngestBackend {
    let store: WaymarkStore
    let directory: DeviceDirectory
    let fleet: DeviceFleet
    /// Prices each phone's reports (docs/semantics.md §4.4).
    var phoneEnergy: PhoneEnergyMeter? = nil

    func device(named name: String) async throws -> Device? { try await directory.device(named: name) }

    func device(withSecret hash: DeviceSecret.Hash) async throws -> Device? { try await directory.device(withSecret: hash) }

    func ingest(_ fixes: [Fix], device: String) async throws {
        guard !fixes.isEmpty else { return }
        let pipeline = try await fleet.pipeline(for: device)
        // Answered once committed: a device that hears 200 does not send the fix again.
        await pipeline.handleCommitted(fixes.map(SourceEvent.fix))
    }

    func ingest(ownTracks messages: [OwnTracksMessage], device: String) async throws {
        let received = fleet.clock.now
        let events = messages.flatMap { $0.sourceEvents(received: received) }
        guard !events.isEmpty else { return }
        try await fleet.pipeline(for: device).handleCommitted(events)
    }

    /// The phone's steering after its latest location (`DeviceFleet.steer`): its region window
    /// and its mode, `[]` when nothing changed.
    func ownTracksReply(device: String, after messages: [OwnTracksMessage]) async throws -> String {
        OwnTracksReply.array(fleet.steer(device, after: PhoneReport.latest(in: messages)))
    }

    func exchanged(device: String, ownTracks messages: [OwnTracksMessage]?, requestBytes: Int, replyBytes: Int) async {
        if let messages {
            phoneEnergy?.ownTracks(messages, device: device, requestBytes: requestBytes, replyBytes: replyBytes)
        } else {
            phoneEnergy?.osmAnd(device: device, requestBytes: requestBytes, replyBytes: replyBytes)
        }
    }

    func countRefusal(_ reason: String, device: String?) async {
        await fleet.countRefusal(reason, device: device)
    }
}
