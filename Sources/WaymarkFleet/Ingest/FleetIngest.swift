import Logging
import WaymarkAPI
import WaymarkCore
import WaymarkDevices
import WaymarkNATS
import WaymarkSources

/// An ingest node's view of the fleet (docs/fleet.md): devices from PostgreSQL, fixes onto the
/// bus. A request is answered 200 once JetStream has stored every fix of it, so a device that
/// hears 200 never needs to send them again; each fix's message id (device and time) makes a
/// resent one a duplicate JetStream drops within its two-minute window.
///
/// Fixes without a time are not published: every network protocol carries one, and a fix the
/// partition cannot order has no place in the history.
struct FleetIngest: DeviceIngestBackend {
    let database: FleetDatabase
    let jetStream: JetStream
    let partitions: Int
    let logger: Logger

    func device(named name: String) async throws -> Device? { try await database.device(named: name) }

    func device(withSecret hash: DeviceSecret.Hash) async throws -> Device? { try await database.device(withSecret: hash) }

    func ingest(_ fixes: [Fix], device: String) async throws {
        let subject = FleetSubjects.fix(device: device, partitions: partitions)
        // Pipelined in order: the partition's order is the order the device sent them in.
        let messages = fixes.compactMap { fix -> (payload: [UInt8], subject: String, messageID: String?)? in
            guard let time = fix.time else { return nil }
            return (FixPayload(device: device, fix: fix, time: time).encoded(), subject, "\(device)@\(time.nanosecondsSince1970)")
        }
        _ = try await jetStream.publish(messages)
    }

    /// OwnTracks locations as fixes. The device's own transitions, waypoints and cards are not
    /// kept in fleet mode yet (docs/fleet.md).
    func ingest(ownTracks messages: [OwnTracksMessage], device: String) async throws {
        let fixes = messages.compactMap { message -> Fix? in
            if case .location(let location) = message { return location.fix }
            return nil
        }
        try await ingest(fixes, device: device)
    }

    /// Fleet mode does not send regions to phones yet: the reply is always empty.
    func ownTracksReply(device: String) async throws -> String { OwnTracksReply.empty }

    func countRefusal(_ reason: String, device: String?) async {
        logger.info("request refused", metadata: ["reason": "\(reason)", "device": "\(device ?? "-")"])
    }
}
