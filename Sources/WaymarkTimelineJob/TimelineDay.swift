import Foundation
import WaymarkCore

/// A calendar day (`waymark timeline --day 2026-05-02`, `GET /v1/timeline?day=…`): its range
/// is from local midnight to the next local midnight in a time zone, so a day across a DST
/// change is 23 or 25 hours long.
public struct TimelineDay: Sendable, Hashable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Parses `YYYY-MM-DD` (a real date: 2026-02-30 is refused).
    public init(_ text: String) throws(TimelineError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day)
        else { throw .invalidDay(text) }
        self.year = year
        self.month = month
        self.day = day
    }

    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// Noon UTC of the day: where the device was then decides the day's zone (`TimelineJob.day`).
    var noonUTC: Timestamp {
        Timestamp(nanosecondsSince1970: Int64(CivilDate.days(year: year, month: month, day: day)) * 86_400_000_000_000 + 43_200_000_000_000)
    }

    /// From this day's local midnight to the next day's in the IANA zone `timeZone`.
    public func range(in timeZone: String) throws(TimelineError) -> (from: Timestamp, to: Timestamp) {
        guard let zone = LocalTime.zone(timeZone) else { throw .unknownTimeZone(timeZone) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let next = CivilDate.civil(days: CivilDate.days(year: year, month: month, day: day) + 1)
        guard let start = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            let end = calendar.date(from: DateComponents(year: next.year, month: next.month, day: next.day))
        else { throw .invalidDay(description) }
        return (Timestamp(secondsSince1970: start.timeIntervalSince1970), Timestamp(secondsSince1970: end.timeIntervalSince1970))
    }
}
