import Foundation
import WaymarkCore
import WaymarkStore

extension ReportedStay {
    /// How long before a range a reported visit may have begun and still overlap it: Google's
    /// visits of a holiday or a long stay at home last days.
    static let lookBehind: Double = 14 * 86_400

    /// The device's reported visits (`reportedVisit` events, from `waymark import`) overlapping
    /// [from, to), in time order. A visit without an end lasts an instant.
    public static func read(from store: WaymarkStore, device: String, from: Timestamp, to: Timestamp) async throws -> [ReportedStay] {
        try await store.offPool { store in
            var stays: [ReportedStay] = []
            let query = HistoryQuery(from: from.adding(seconds: -lookBehind), to: to, kinds: [.event], devices: [device])
            try store.history(query) { item in
                guard case .event(let event) = item, let stay = ReportedStay(event), stay.departure > from else { return }
                stays.append(stay)
            }
            return stays
        }
    }

    /// The reported stay a stored `reportedVisit` event records; nil for other events.
    public init?(_ event: StoredEvent) {
        guard event.kind == .reportedVisit else { return nil }
        let members = (try? JSONSerialization.jsonObject(with: Data(event.record.utf8))) as? [String: Any]
        let end = (members?["end"] as? String).flatMap { Timestamp(rfc3339: $0) }
        self.init(
            arrival: event.time, departure: max(end ?? event.time, event.time), centre: event.coordinate,
            name: members?["name"] as? String)
    }
}
