import Foundation
import GRDB

extension WaymarkStore {
    /// The local days of `timeZone` on which `device` has fixes, oldest first, each with its
    /// number of fixes: one scan grouping the device's fixes by 15 minutes of UTC time, the
    /// groups then mapped to local days (`LocalDayTally`), so the answer is right across
    /// daylight-saving changes and for zones with half- and quarter-hour offsets.
    /// `GET /v1/history/days` (the web page's calendar). Blocking: call it through `offPool`.
    public func fixDays(device: String, timeZone: TimeZone) throws -> [FixDay] {
        let width = LocalDayTally.bucketSeconds * 1_000_000_000
        do {
            return try database.read { db in
                var tally = LocalDayTally(timeZone)
                // The floor of time / width, also for times before 1970.
                let buckets = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT (time_ns - ((time_ns % \(width)) + \(width)) % \(width)) / \(width) AS bucket, count(*)
                        FROM fixes WHERE device = ? GROUP BY bucket
                        """,
                    arguments: [device])
                for row in buckets {
                    let start = (row[0] as Int64) * LocalDayTally.bucketSeconds
                    let count: Int = row[1]
                    guard let midnight = tally.add(bucketStart: start, count: count) else { continue }
                    let before = try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM fixes WHERE device = ? AND time_ns >= ? AND time_ns < ?",
                        arguments: [device, start * 1_000_000_000, midnight * 1_000_000_000]) ?? 0
                    tally.split(bucketStart: start, count: count, midnight: midnight, before: before)
                }
                return tally.days
            }
        } catch {
            throw storeError(error, doing: "counting device \(device)'s fixes by day")
        }
    }
}
