import WaymarkCore

/// The three record types of the history.
public enum HistoryKind: String, Sendable, Hashable, CaseIterable {
    /// An accepted fix (`fixes`).
    case fix
    /// A time with no fix: gpsd reported mode 0/1, or the source disconnected (`gaps`).
    case gap
    /// A region transition or other event (`events`).
    case event
}

/// Which part of the history to read.
///
/// The interval is half-open: `from` is inclusive and `to` exclusive, so consecutive queries
/// `[a, b)`, `[b, c)` see every record exactly once. `nil` leaves that side unbounded.
public struct HistoryQuery: Sendable, Equatable {
    /// The earliest time included (inclusive); `nil` for the beginning of the history.
    public var from: Timestamp?
    /// The first time no longer included (exclusive); `nil` for the end of the history.
    public var to: Timestamp?
    /// The record types to read; an empty set reads nothing.
    public var kinds: Set<HistoryKind>
    /// At most this many items in all (the earliest ones); `nil` for no limit.
    public var limit: Int?
    /// Only these devices' rows; nil: every device's.
    public var devices: Set<String>?

    public init(
        from: Timestamp? = nil, to: Timestamp? = nil, kinds: Set<HistoryKind> = Set(HistoryKind.allCases),
        limit: Int? = nil, devices: Set<String>? = nil
    ) {
        self.from = from
        self.to = to
        self.kinds = kinds
        self.limit = limit
        self.devices = devices
    }
}
