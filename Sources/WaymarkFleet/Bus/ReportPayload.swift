import Foundation
import WaymarkCore
import WaymarkPipeline
import WaymarkRegions

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
    /// A reported region transition's kind (`enter`, `exit`) and position, so the worker can take
    /// it as evidence (`DevicePipeline.record(reported:)`); absent for other reports.
    var x: String?
    var la: Double?
    var lo: Double?

    init(device: String, time: Timestamp, kind: EventKind, region: String?, record: String) {
        d = device
        t = time.nanosecondsSince1970
        k = kind.rawValue
        g = region
        r = record
    }

    /// The report of `event`, with its transition and position.
    init(device: String, event: EventRecord) {
        self.init(device: device, time: event.time, kind: event.kind, region: event.region, record: event.record)
        x = event.transition?.rawValue
        la = event.coordinate?.latitude
        lo = event.coordinate?.longitude
    }

    /// The event the device reported, as the single daemon holds it.
    var event: EventRecord? {
        guard let kind = EventKind(rawValue: k) else { return nil }
        let coordinate = la.flatMap { la in lo.map { Coordinate(latitude: la, longitude: $0) } }
        return EventRecord(
            time: time, kind: kind, region: g, transition: x.flatMap(RegionTransition.Kind.init(rawValue:)), coordinate: coordinate, record: r)
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
