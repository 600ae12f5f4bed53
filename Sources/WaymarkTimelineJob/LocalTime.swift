import Foundation
import WaymarkCore

/// Local wall-clock times in an IANA zone (Foundation's tz database).
enum LocalTime {
    /// The zone named `identifier`, or nil when the system does not know it.
    static func zone(_ identifier: String) -> TimeZone? { TimeZone(identifier: identifier) }

    /// RFC 3339 with the zone's offset at that instant, to the second:
    /// `2026-05-02T08:12:00+02:00` (`Z` is never used: the offset is the point).
    static func rfc3339(_ time: Timestamp, in zone: TimeZone) -> String {
        let seconds = Int64((Double(time.nanosecondsSince1970) / 1e9).rounded(.down))
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
        var text = Timestamp(nanosecondsSince1970: (seconds + Int64(offset)) * 1_000_000_000).rfc3339
        text.removeLast()
        let magnitude = abs(offset) / 60
        let hours = magnitude / 60
        let minutes = magnitude % 60
        return text + (offset < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
    }
}
