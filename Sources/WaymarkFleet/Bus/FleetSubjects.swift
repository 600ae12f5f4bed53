import Foundation
import WaymarkOutputs

/// Where fleet messages go on the bus (docs/fleet.md). Fixes are published to
/// `waymark.fix.<partition>.<device>`; partition `p`'s consumer takes `waymark.fix.<p>.>`, so a
/// device's fixes stay in one ordered partition that one worker owns at a time.
public enum FleetSubjects {
    /// The JetStream stream holding every fix until its partition's worker acknowledges it,
    /// and a day after (a buffer while PostgreSQL is away; the history is PostgreSQL's).
    public static let fixStream = "WAYMARK_FIXES"
    public static let fixRoot = "waymark.fix"
    static let fixRetention: Duration = .seconds(86_400)

    /// The stream of every event the workers commit, on `waymark.event.<device>`, each once
    /// (its message id is the event's id), kept a week for the outputs that read it.
    public static let eventStream = "WAYMARK_EVENTS"
    public static let eventRoot = "waymark.event"
    static let eventRetention: Duration = .seconds(7 * 86_400)

    /// The subject of `device`'s events.
    static func event(device: String) -> String { "\(eventRoot).\(token(device))" }

    /// The subject of `device`'s fixes.
    static func fix(device: String, partitions: Int) -> String {
        "\(fixRoot).\(partition(of: device, among: partitions)).\(token(device))"
    }

    /// The subject of what `device` reports about itself: its fix subject and `.r`, so reports
    /// and fixes share the partition and its order.
    static func report(device: String, partitions: Int) -> String { fix(device: device, partitions: partitions) + ".r" }

    /// Whether a message on the fix stream is a report rather than a fix.
    static func isReport(_ subject: String) -> Bool { subject.hasSuffix(".r") }

    /// The subject of the beacons `device` saw: its fix subject and `.b`, in order with its fixes.
    static func sighting(device: String, partitions: Int) -> String { fix(device: device, partitions: partitions) + ".b" }

    /// Whether a message on the fix stream is a beacon sighting.
    static func isSighting(_ subject: String) -> Bool { subject.hasSuffix(".b") }

    /// Whether a message on the fix stream is a fix (not a report, not a sighting).
    static func isFix(_ subject: String) -> Bool { !isReport(subject) && !isSighting(subject) }

    /// What partition `p`'s consumer takes.
    static func fixes(partition: Int) -> String { "\(fixRoot).\(partition).>" }

    /// The durable consumer of partition `p`.
    static func consumer(partition: Int) -> String { "partition-\(partition)" }

    /// A device's partition: FNV-1a (32-bit) of its name, modulo the partition count. The
    /// partition count is the fleet's (`fleet_settings`), the same for every node.
    public static func partition(of device: String, among partitions: Int) -> Int {
        Int(StableHash.fnv1a(device) % UInt32(partitions))
    }

    /// A device name as one subject token: names may hold `.`, which NATS reads as a separator;
    /// `%` never occurs in a name (`ShortName`), so `%2E` is unambiguous.
    static func token(_ device: String) -> String {
        device.replacingOccurrences(of: ".", with: "%2E")
    }

    static func device(fromToken token: String) -> String {
        token.replacingOccurrences(of: "%2E", with: ".")
    }

    /// The stream of events every output's consumer reads.
    static let allEvents = "\(eventRoot).>"

    /// The durable consumer of an output: its name as a consumer name allows (no `.`).
    static func consumer(output: String) -> String { "output-" + token(output) }

    /// The durable consumer of the fixes an output publishes as positions.
    static func positionConsumer(output: String) -> String { "output-" + token(output) + "-positions" }

    /// What an output's position consumer takes: every partition's fixes.
    static let allFixes = "\(fixRoot).>"
}
