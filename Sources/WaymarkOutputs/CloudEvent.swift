import Crypto
import WaymarkCore

/// CloudEvents 1.0 in structured JSON mode (`application/cloudevents+json`), the envelope of
/// every event an output sends (docs/outputs.md):
///
/// `{"specversion":"1.0","id":…,"source":…,"type":"org.waymark.region.enter","time":…,
/// "subject":"phone","partitionkey":"phone","sequence":"00000000000000000042",
/// "datacontenttype":"application/json","data":{…the record…}}`
///
/// - `id` is the first 128 bits of SHA-256 over the device and the record, in hex: the same
///   event has the same id on every delivery, so a receiver drops redeliveries by it.
/// - `type` is `org.waymark.` + the kind, + `.enter`/`.exit`/`.dwell` for transitions.
/// - `sequence` (the sequence extension) is the history row id, zero-padded to 20 digits so
///   it orders as text; `partitionkey` (the partitioning extension) is the device, the unit
///   events stay in order within.
public enum CloudEvent {
    public static let contentType = "application/cloudevents+json"

    public static func id(of event: OutputEvent) -> String {
        let digest = SHA256.hash(data: Array((event.device + "\n" + event.record).utf8))
        return digest.prefix(16).hexadecimal
    }

    public static func type(of event: OutputEvent) -> String {
        "org.waymark." + event.kind.rawValue + (event.transition.map { "." + $0 } ?? "")
    }

    /// The envelope as one line of JSON; `source` is the sender's URI (`urn:waymark:HOST`).
    public static func json(_ event: OutputEvent, source: String) -> String {
        var envelope = JSONObjectWriter()
        envelope.add("specversion", "1.0")
        envelope.add("id", id(of: event))
        envelope.add("source", source)
        envelope.add("type", type(of: event))
        envelope.add("time", event.time.rfc3339)
        envelope.add("subject", event.device)
        envelope.add("partitionkey", event.device)
        envelope.add("sequence", String(repeating: "0", count: max(0, 20 - String(event.sequence).count)) + String(event.sequence))
        envelope.add("datacontenttype", "application/json")
        envelope.addRaw("data", event.record)
        return envelope.object
    }

    /// A test event (`waymark outputs test`): type `org.waymark.test`, the given id, device
    /// `local`, and data saying what it is.
    public static func testJSON(source: String, at time: Timestamp, id: String) -> String {
        var data = JSONObjectWriter()
        data.add("kind", "test")
        data.add("time", time.rfc3339)
        data.add("message", "a test event from `waymark outputs test`")
        var envelope = JSONObjectWriter()
        envelope.add("specversion", "1.0")
        envelope.add("id", id)
        envelope.add("source", source)
        envelope.add("type", "org.waymark.test")
        envelope.add("time", time.rfc3339)
        envelope.add("subject", "local")
        envelope.add("datacontenttype", "application/json")
        envelope.addRaw("data", data.object)
        return envelope.object
    }
}
