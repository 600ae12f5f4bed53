import Foundation
import WaymarkCore
import WaymarkPipeline
import WaymarkSources
import WaymarkStore

/// Recognises retained MQTT messages Waymark has taken before (docs/devices.md). A broker sends
/// a topic's retained message again on every subscription — every reconnection, every daemon
/// start — flagged as retained; the OwnTracks apps retain their positions and cards. Stored
/// again each time, a card or a waypoint would become a new event dated the restart (their
/// records carry the time they were received). A retained delivery is a repeat when
/// - this run already took the same payload on that topic, or
/// - the history already has it: a fix of the device at the position's time; the device's
///   latest event of that kind (and region) with the same record — the receipt time aside for
///   the kinds dated when received (cards, waypoints, last wills).
struct RetainedMessages: Sendable {
    /// Per topic, the last payload taken (retained or not).
    private var taken: [String: [UInt8]] = [:]

    /// Notes a payload taken from `topic`.
    mutating func took(_ payload: [UInt8], on topic: String) { taken[topic] = payload }

    /// Whether this run already took `payload` on `topic`.
    func tookAlready(_ payload: [UInt8], on topic: String) -> Bool { taken[topic] == payload }

    /// The events of a retained delivery the device's history does not have yet.
    static func unseen(_ events: [SourceEvent], device: String, in store: WaymarkStore) throws -> [SourceEvent] {
        try events.filter { event in
            switch event {
            case .fix(let fix):
                guard let time = fix.time else { return true }
                var found = false
                let query = HistoryQuery(
                    from: time, to: Timestamp(nanosecondsSince1970: time.nanosecondsSince1970 + 1), kinds: [.fix], limit: 1, devices: [device])
                try store.history(query) { _ in found = true }
                return !found
            case .reported(let reported):
                return try latest(like: reported, device: device, in: store).map { !sameReport($0, reported) } ?? true
            default:
                return true
            }
        }
    }

    /// The device's latest stored event of `event`'s kind and region.
    private static func latest(like event: EventRecord, device: String, in store: WaymarkStore) throws -> StoredEvent? {
        var latest: StoredEvent?
        try store.history(HistoryQuery(kinds: [.event], devices: [device])) { item in
            if case .event(let stored) = item, stored.kind == event.kind, stored.region == event.region { latest = stored }
        }
        return latest
    }

    /// The same report: the same record, apart from the time of receipt for the kinds dated by it.
    private static func sameReport(_ stored: StoredEvent, _ event: EventRecord) -> Bool {
        let datedWhenReceived: Set<EventKind> = [.reportedCard, .reportedWaypoint, .reportedOffline]
        guard datedWhenReceived.contains(event.kind) else { return stored.record == event.record }
        func members(_ record: String) -> NSDictionary? {
            guard var object = try? JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any] else { return nil }
            object["time"] = nil
            return object as NSDictionary
        }
        guard let old = members(stored.record), let new = members(event.record) else { return false }
        return old.isEqual(new)
    }
}
