/// An instant in UTC with nanosecond resolution, exact so that times compare and print
/// exactly as read.
///
/// Stored as nanoseconds since 1970-01-01T00:00:00Z in an `Int64`, which covers the years
/// 1678–2262 (the oldest sample track in use claims 1901).
public struct Timestamp: Sendable, Hashable, Comparable {
    public var nanosecondsSince1970: Int64

    public init(nanosecondsSince1970: Int64) {
        self.nanosecondsSince1970 = nanosecondsSince1970
    }

    public init(secondsSince1970: Double) {
        self.nanosecondsSince1970 = Int64((secondsSince1970 * 1e9).rounded())
    }

    /// Seconds since 1970 as a `Double` (microsecond precision for present-day dates).
    public var secondsSince1970: Double { Double(nanosecondsSince1970) / 1e9 }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.nanosecondsSince1970 < rhs.nanosecondsSince1970
    }

    /// Seconds from `other` to `self` (positive when `self` is later).
    public func seconds(since other: Timestamp) -> Double {
        Double(nanosecondsSince1970 &- other.nanosecondsSince1970) / 1e9
    }

    /// This instant moved by `seconds`.
    public func adding(seconds: Double) -> Timestamp {
        Timestamp(nanosecondsSince1970: nanosecondsSince1970 + Int64((seconds * 1e9).rounded()))
    }
}
