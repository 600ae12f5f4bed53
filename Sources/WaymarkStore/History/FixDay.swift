import Foundation
import WaymarkCore

/// A local calendar day on which a device has fixes, and how many (`GET /v1/history/days`).
public struct FixDay: Sendable, Equatable {
    /// `YYYY-MM-DD` in the zone the days were counted in.
    public var date: String
    public var fixes: Int

    public init(date: String, fixes: Int) {
        self.date = date
        self.fixes = fixes
    }

    /// `{"date":"2026-06-01","fixes":1234}`
    public var json: String {
        var w = JSONObjectWriter()
        w.add("date", date)
        w.add("fixes", fixes)
        return w.object
    }
}

/// Counts of fixes per UTC bucket turned into counts per local day of a zone.
///
/// The stores group fixes by `bucketSeconds` (15 minutes) of UTC time, which is cheap; every
/// offset in use since 1970 is a multiple of 15 minutes (+05:45 Kathmandu, +08:45 Eucla) and
/// zones change offset on such a boundary, so a bucket lies within one local day. A bucket
/// across a local midnight (an older odd offset) is reported by `add`, and its caller counts
/// the part before `midnight` exactly.
struct LocalDayTally {
    /// The bucket width, seconds.
    static let bucketSeconds: Int64 = 900

    let timeZone: TimeZone
    private var counts: [Int: Int] = [:]

    init(_ timeZone: TimeZone) { self.timeZone = timeZone }

    /// The local day (days since 1970-01-01) holding the second `second` since 1970 (UTC).
    func day(ofSecond second: Int64) -> Int {
        let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(second))))
        let local = second + offset
        return Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
    }

    /// Adds `count` fixes of the bucket starting at `start` (seconds since 1970); when a local
    /// midnight falls inside the bucket, adds nothing and returns that midnight (seconds), for
    /// `split`.
    mutating func add(bucketStart start: Int64, count: Int) -> Int64? {
        let first = day(ofSecond: start)
        guard day(ofSecond: start + Self.bucketSeconds - 1) != first else {
            counts[first, default: 0] += count
            return nil
        }
        // The first second of the next local day: offsets are whole seconds.
        var low = start, high = start + Self.bucketSeconds - 1
        while low < high {
            let middle = (low + high) / 2
            if day(ofSecond: middle) == first { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// A bucket across `midnight`: `before` of its `count` fixes were earlier.
    mutating func split(bucketStart start: Int64, count: Int, midnight: Int64, before: Int) {
        counts[day(ofSecond: start), default: 0] += before
        counts[day(ofSecond: midnight), default: 0] += count - before
    }

    /// The days with fixes, oldest first.
    var days: [FixDay] {
        counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { day, fixes in
            let date = CivilDate.civil(days: day)
            return FixDay(date: String(format: "%04d-%02d-%02d", date.year, date.month, date.day), fixes: fixes)
        }
    }
}
