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

    /// `Area/Location` (`Europe/Berlin`, `America/Argentina/Buenos_Aires`, `Etc/GMT+2`), or UTC/GMT.
    static func isZoneName(_ name: String) -> Bool {
        if name == "UTC" || name == "GMT" { return true }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { part in
            !part.isEmpty && part.utf8.allSatisfy { byte in
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            }
        }
    }

    init(_ parameters: Parameters) throws(APIError) {
        for (name, _) in parameters where !["device", "tz"].contains(name) {
            throw .invalidParameter(String(name), "unknown parameter; /v1/history/days takes device and tz")
        }
        device = parameters.get("device") ?? "local"
        if let problem = DeviceName.problem(with: device) { throw .invalidParameter("device", problem) }
        zoneName = parameters.get("tz") ?? "UTC"
        // Only names of the zone database, which PostgreSQL (the fleet) and Foundation read
        // alike: not abbreviations (PostgreSQL takes PST as a fixed -08:00, Foundation as Los
        // Angeles) nor POSIX strings such as GMT+2, whose sign they read oppositely.
        guard Self.isZoneName(zoneName), let zone = TimeZone(identifier: zoneName) else {
            throw .invalidParameter("tz", "\"\(zoneName)\" is not an IANA time zone name such as Europe/Berlin or UTC")
        }
        timeZone = zone
    }
}
