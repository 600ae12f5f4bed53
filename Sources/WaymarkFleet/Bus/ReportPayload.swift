import Foundation
import WaymarkCore

/// Something a device reported about itself (an OwnTracks transition, waypoint, card or last
/// will: docs/devices.md) as it travels on the bus, on its device's fix subject with `.r`
/// appended, so it stays in order with the device's fixes. The worker records it as the event
/// it is, byte for byte the record the single daemon stores.
struct ReportPayload: Codable, Sendable, Equatable {
    var d: String
    var t: Int64
    /// The event's kind (`reportedRegion`, `reportedWaypoint`, …).
    var k: String
    /// The region it names, if any.
    var g: String?
    /// The JSON record.
    var r: String

    init(device: String, time: Timestamp, kind: EventKind, region: String?, record: String) {
        d = device
        t = time.nanosecondsSince1970
        k = kind.rawValue
        g = region
        r = record
    }

    var device: String { d }
    var time: Timestamp { Timestamp(nanosecondsSince1970: t) }

    func encoded() -> [UInt8] {
        // Encoding a struct of numbers and strings cannot fail.
        (try? Array(JSONEncoder().encode(self))) ?? []
    }

    static func decode(_ bytes: [UInt8]) throws -> ReportPayload {
        try JSONDecoder().decode(ReportPayload.self, from: Data(bytes))
    }
}
