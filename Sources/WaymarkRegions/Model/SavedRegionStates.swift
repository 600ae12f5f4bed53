import WaymarkCore

/// What a device's pipeline restores its regions from (docs/semantics.md §3): each region's own
/// saved state, and the moment its regions were last established together.
///
/// A fix that establishes many regions at once (the device's first, or the first after regions
/// were added) records that moment once instead of a state per region: with 10,000 regions and
/// 10,000 devices, a row per region and device was 10⁸ rows (BENCHMARKS.md, devices over MQTT).
/// Regions the fix found the device inside, and every later crossing, still get their own state.
public struct SavedRegionStates: Sendable, Equatable, ExpressibleByArrayLiteral {
    public var states: [SavedRegionState]
    public var established: EstablishedRegions?

    public init(_ states: [SavedRegionState] = [], established: EstablishedRegions? = nil) {
        self.states = states
        self.established = established
    }

    public init(arrayLiteral states: SavedRegionState...) { self.init(states) }
}

/// Regions established together by one fix: every region with no saved state of its own was
/// outside from `since`, except those in `excluding` (the store's regions imported after the
/// moment was recorded: they were not monitored then, and start unknown).
public struct EstablishedRegions: Sendable, Equatable {
    /// The establishing fix's time; nil when it had none.
    public var since: Timestamp?
    public var excluding: Set<String>

    public init(since: Timestamp?, excluding: Set<String> = []) {
        self.since = since
        self.excluding = excluding
    }
}
