import WaymarkCore

/// An entry into or exit from a beacon region (docs/semantics.md §3): what handler delivery and the
/// records are made from.
public struct BeaconTransition: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// The first advertisement matching the region.
        case enter
        /// No matching advertisement for the region's exit timeout.
        case exit
    }

    public var kind: Kind
    /// The region's position among the monitor's regions.
    public var regionIndex: Int32
    public var identifier: String
    /// Entry: the matching advertisement's time. Exit: when the timeout elapsed, the last
    /// sighting plus the timeout (the moment the exit became known).
    public var time: Timestamp
    /// The last matching advertisement (for an entry, the one that caused it).
    public var lastSeen: Timestamp
    /// Entry: the advertisement that caused it.
    public var advertisement: BeaconAdvertisement?
    /// Whether the region asked to be told (`notifyOnEntry` / `notifyOnExit`); the state
    /// changes either way.
    public var notifies: Bool

    public init(
        kind: Kind, regionIndex: Int32, identifier: String, time: Timestamp, lastSeen: Timestamp,
        advertisement: BeaconAdvertisement? = nil, notifies: Bool = true
    ) {
        self.kind = kind
        self.regionIndex = regionIndex
        self.identifier = identifier
        self.time = time
        self.lastSeen = lastSeen
        self.advertisement = advertisement
        self.notifies = notifies
    }
}

/// What one advertisement, or the passing of time, changed.
public struct BeaconUpdate: Sendable, Equatable {
    /// In time order; at one time exits before entries, then by identifier.
    public var transitions: [BeaconTransition] = []
    /// Regions whose state became known as outside without a transition: no sighting for their
    /// timeout since monitoring began (registration gives no event).
    public var establishedOutside: [Int32] = []

    public init() {}

    /// Regions whose saved state should be rewritten.
    public var changedRegions: [Int32] { establishedOutside + transitions.map(\.regionIndex) }
}
