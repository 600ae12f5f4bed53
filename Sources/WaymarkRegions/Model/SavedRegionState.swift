import WaymarkCore

/// A region's confirmed state as the store keeps it across restarts (docs/semantics.md §3), geographic
/// (`region_state`) or beacon (`beacon_region_state`).
public struct SavedRegionState: Sendable, Equatable {
    public var identifier: String
    public var inside: Bool
    /// When the state began (the crossing, or the fix that established it); nil if untimed.
    public var since: Timestamp?
    /// Whether the current stay inside has had its dwell transition.
    public var dwelled: Bool
    /// Beacon regions: the last matching advertisement, from which the exit timeout runs; nil
    /// for geographic regions.
    public var lastSeen: Timestamp?

    public init(identifier: String, inside: Bool, since: Timestamp?, dwelled: Bool = false, lastSeen: Timestamp? = nil) {
        self.identifier = identifier
        self.inside = inside
        self.since = since
        self.dwelled = dwelled
        self.lastSeen = lastSeen
    }
}
