import Foundation
import WaymarkCore
import WaymarkOutputs

/// An event as the workers put it on the bus (`waymark.event.<device>`, the record `waymark
/// replay` prints as the payload), read back as outputs deliver it. Its sequence is the
/// message's stream sequence: increasing in the order the events were committed.
enum BusEvent {
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The fields of a record an output needs besides the record itself.
    private struct Fields: Decodable {
        var kind: String
        var time: String
        var region: String?
        /// A place change's new place: its region, as the single daemon's history has it.
        var place: String?
        var transition: String?
        var latitude: Double?
        var longitude: Double?
    }

    static func decode(subject: String, payload: [UInt8], sequence: UInt64) throws(Problem) -> OutputEvent {
        let prefix = FleetSubjects.eventRoot + "."
        guard subject.hasPrefix(prefix), subject.count > prefix.count else {
            throw Problem(description: "subject '\(subject)' is not \(prefix)<device>")
        }
        let device = FleetSubjects.device(fromToken: String(subject.dropFirst(prefix.count)))
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: Data(payload))
        } catch {
            throw Problem(description: "the record is not an event's JSON: \(error)")
        }
        guard let kind = EventKind(rawValue: fields.kind) else { throw Problem(description: "unknown event kind '\(fields.kind)'") }
        guard let time = Timestamp(rfc3339: fields.time) else { throw Problem(description: "time '\(fields.time)' is not RFC 3339") }
        let coordinate = fields.latitude.flatMap { latitude in fields.longitude.map { Coordinate(latitude: latitude, longitude: $0) } }
        return OutputEvent(
            sequence: Int64(sequence), device: device, time: time, kind: kind, region: kind == .place ? fields.place : fields.region,
            transition: fields.transition,
            record: String(decoding: payload, as: UTF8.self), coordinate: coordinate)
    }
}
