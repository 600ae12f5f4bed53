import Foundation
import WaymarkCore
import WaymarkRegions
import WaymarkStore

/// An event row of the fleet (or an event message on the bus) as the single daemon's history
/// holds it: the record the worker stored, byte for byte, with the queryable fields read from it
/// (the transition and where it happened), so the API serves it in the daemon's shape.
enum FleetEventRecord {
    private struct Fields: Decodable {
        var kind: String?
        var time: String?
        var region: String?
        var transition: String?
        var latitude: Double?
        var longitude: Double?
    }

    static func storedEvent(device: String, time: Timestamp, kind: String, region: String?, record: String) -> StoredEvent {
        let fields = try? JSONDecoder().decode(Fields.self, from: Data(record.utf8))
        let coordinate = fields?.latitude.flatMap { latitude in fields?.longitude.map { Coordinate(latitude: latitude, longitude: $0) } }
        // A kind this build does not know keeps its record; the kind field only sorts history.
        return StoredEvent(
            time: time, kind: EventKind(rawValue: kind) ?? .state, region: region ?? fields?.region,
            transition: fields?.transition.flatMap(RegionTransition.Kind.init(rawValue:)), coordinate: coordinate, record: record,
            device: device)
    }

    /// An event message of `waymark.event.<device>` (its payload the record); nil when the
    /// record is not an event's JSON.
    static func storedEvent(device: String, payload: [UInt8]) -> StoredEvent? {
        let record = String(decoding: payload, as: UTF8.self)
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(payload)), let kind = fields.kind,
            let time = fields.time.flatMap(Timestamp.init(rfc3339:))
        else { return nil }
        return storedEvent(device: device, time: time, kind: kind, region: fields.region, record: record)
    }
}
