import Foundation
import PostgresNIO
import WaymarkStore

extension FleetDatabase {
    /// The local days of the zone `timeZone` (an IANA name PostgreSQL knows) on which `device`
    /// has fixes, oldest first, with how many: PostgreSQL converts each time to the zone's wall
    /// clock (`AT TIME ZONE`, daylight saving included) and truncates it to the day.
    public func fixDays(device: String, timeZone: String) async throws -> [FixDay] {
        let rows = try await client.query(
            """
            SELECT to_char(date_trunc('day', time AT TIME ZONE \(timeZone)), 'YYYY-MM-DD') AS day, count(*)
            FROM fixes WHERE device = \(device) GROUP BY day ORDER BY day
            """, logger: logger)
        var days: [FixDay] = []
        for try await (date, fixes) in rows.decode((String, Int).self) { days.append(FixDay(date: date, fixes: fixes)) }
        return days
    }
}
