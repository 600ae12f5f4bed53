import Foundation
import Logging
import WaymarkAPI
import WaymarkCore
import WaymarkDevices
import WaymarkNATS
import WaymarkOutputs
import WaymarkPipeline
import WaymarkSources
import WaymarkSteering

/// An ingest node's view of the fleet (docs/fleet.md): devices from PostgreSQL, fixes and
/// reports onto the bus, pipelined in order (the partition's order is the order the device sent
/// them in). A request is answered 200 once JetStream has stored every message of it, so a
/// device that hears 200 never needs to send them again; each message's id (device and time) makes
/// a resent one a duplicate JetStream drops within its two-minute window.
struct FleetIngest: DeviceIngestBackend {
    let database: FleetDatabase
    let jetStream: JetStream
    let partitions: Int
    let steering: FleetSteering
    let logger: Logger

    func device(named name: String) async throws -> Device? { try await database.device(named: name) }

    func device(withSecret hash: DeviceSecret.Hash) async throws -> Device? { try await database.device(withSecret: hash) }

    func ingest(_ fixes: [Fix], device: String) async throws {
        _ = try await jetStream.publish(fixes.compactMap { message(for: $0, device: device) })
    }

    /// OwnTracks messages in order: locations as fixes, beacon sightings for the worker's
    /// beacon-region monitoring (`SightingPayload`), transitions, waypoints, cards and last wills
    /// as reports (`ReportPayload`) — each given to the device's worker as the single daemon
    /// takes it (`OwnTracksMessage.sourceEvents`).
    func ingest(ownTracks messages: [OwnTracksMessage], device: String) async throws {
        let received = Timestamp(date: Date())
        let published = messages.flatMap { $0.sourceEvents(received: received) }.compactMap { event -> BusMessage? in
            switch event {
            case .fix(let fix):
                return message(for: fix, device: device)
            case .reported(let report):
                let payload = ReportPayload(device: device, event: report)
                let id = "\(device)@\(report.time.nanosecondsSince1970)/\(report.kind.rawValue)/\(StableHash.fnv1a(report.record))"
                return (payload.encoded(), FleetSubjects.report(device: device, partitions: partitions), id)
            case .advertisement(let advertisement):
                let payload = SightingPayload(device: device, advertisement: advertisement)
                let id = "\(device)@\(advertisement.time.nanosecondsSince1970)/b/\(advertisement.uuid)/\(advertisement.major)/\(advertisement.minor)"
                return (payload.encoded(), FleetSubjects.sighting(device: device, partitions: partitions), id)
            default:
                return nil
            }
        }
        _ = try await jetStream.publish(published)
    }

    private typealias BusMessage = (payload: [UInt8], subject: String, messageID: String?)

    /// A fix on the device's subject, its message id the device and time (nil without a time:
    /// every network protocol carries one, and a fix the partition cannot order has no place in
    /// the history).
    private func message(for fix: Fix, device: String) -> BusMessage? {
        guard let time = fix.time else { return nil }
        return (
            FixPayload(device: device, fix: fix, time: time).encoded(), FleetSubjects.fix(device: device, partitions: partitions),
            "\(device)@\(time.nanosecondsSince1970)"
        )
    }

    /// The phone's steering after its latest location (`FleetSteering`): its region window and
    /// its mode, as the single daemon answers; `[]` when nothing changed.
    func ownTracksReply(device: String, after messages: [OwnTracksMessage]) async throws -> String {
        OwnTracksReply.array(steering.commands(for: device, after: PhoneReport.latest(in: messages)))
    }

    func countRefusal(_ reason: String, device: String?) async {
        logger.info("request refused", metadata: ["reason": "\(reason)", "device": "\(device ?? "-")"])
    }
}
