import Foundation
import WaymarkCore

/// postgres-nio speaks `timestamptz` as `Date` (microseconds, as PostgreSQL keeps them).
extension Timestamp {
    var date: Date { Date(timeIntervalSince1970: Double(nanosecondsSince1970) / 1e9) }

    init(date: Date) {
        self.init(nanosecondsSince1970: Int64((date.timeIntervalSince1970 * 1e6).rounded()) * 1000)
    }
}
