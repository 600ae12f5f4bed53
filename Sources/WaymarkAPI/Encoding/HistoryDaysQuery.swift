import Foundation
import Hummingbird
import WaymarkDevices

/// `GET /v1/history/days`' parameters: `device` (default `local`) and `tz`, an IANA time zone
/// name (default `UTC`) whose calendar days are counted. Every refusal is a 400 naming the
/// parameter.
struct HistoryDaysQuery: Sendable, Equatable {
    var device: String
    /// The name as asked (`Europe/Berlin`), echoed in the answer.
    var zoneName: String
    var timeZone: TimeZone

    /// The zone names the system's time zone database knows (`tzdata`), read once.
    private static let knownZones = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC"])

    init(_ parameters: Parameters) throws(APIError) {
        for (name, _) in parameters where !["device", "tz"].contains(name) {
            throw .invalidParameter(String(name), "unknown parameter; /v1/history/days takes device and tz")
        }
        device = parameters.get("device") ?? "local"
        if let problem = DeviceName.problem(with: device) { throw .invalidParameter("device", problem) }
        zoneName = parameters.get("tz") ?? "UTC"
        // Only names of the zone database: PostgreSQL (the fleet) and Foundation agree on those,
        // not on abbreviations or POSIX strings such as GMT+2, whose sign they read oppositely.
        guard Self.knownZones.contains(zoneName), let zone = TimeZone(identifier: zoneName) else {
            throw .invalidParameter("tz", "\"\(zoneName)\" is not an IANA time zone name such as Europe/Berlin or UTC")
        }
        timeZone = zone
    }
}
