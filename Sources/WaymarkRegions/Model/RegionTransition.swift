import WaymarkCore

/// A change of a region's state, confirmed by the monitor's rules (docs/semantics.md §3), or a dwell.
public struct RegionTransition: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// The device crossed into the region.
        case enter
        /// The device crossed out of the region.
        case exit
        /// The device has stayed inside for the region's loitering delay.
        case dwell
    }

    /// Which rule of the engine made the transition (docs/semantics.md §3.3): what
    /// `waymark explain` names.
    public enum Rule: String, Sendable, Equatable {
        /// The new side held the delay and a fix of the crossing was the margin past the edge;
        /// the confirming position's uncertainty lay wholly on the new side.
        case margin
        /// The new side held the settle time (60 s) with enough fixes: the margin was waived,
        /// the uncertainty rule still applied.
        case settled
        /// Fixes without time: confirmed on distance alone.
        case untimed
        /// Inferred from the straight path between two sparse fixes, neither inside.
        case crossed
        /// The region asked for an initial trigger and the first fix was inside.
        case initial
        /// The loitering delay passed with the device inside.
        case dwell
        /// The device's own geofencing reported the crossing (an OwnTracks `transition` for a
        /// circle it watches as it is, `PhoneGeofence.isExact`): evidence the fixes may have
        /// missed (`RegionMonitor.apply(reported:)`).
        case phone
    }

    public var kind: Kind
    /// The region's position in the `[Region]` the index was built from.
    public var regionIndex: Int32
    public var identifier: String
    /// Where and when it happened: for enter and exit the first fix on the new side of the
    /// boundary (for a crossed region, the point where the straight path meets the boundary,
    /// with its interpolated time); for a dwell the fix at which the delay was reached.
    public var fix: Fix
    /// When the monitor confirmed it (the fix that satisfied the hysteresis rules); `nil` for
    /// transitions built by hand.
    public var confirmedAt: Timestamp?
    /// Reported from the straight path between two sparse fixes, neither of them inside.
    public var crossed: Bool
    /// An entry reported because the region asked for an initial trigger.
    public var initial: Bool
    /// Whether the region asked to be told (`notifyOnEntry` / `notifyOnExit`); the state
    /// changes either way.
    public var notifies: Bool
    /// The rule that fired.
    public var rule: Rule
    /// Whether the confirming position was the engine's estimate from several fixes at rest
    /// (`PositionEstimate`) rather than one fix.
    public var estimated: Bool

    public init(
        kind: Kind, regionIndex: Int32, identifier: String, fix: Fix, confirmedAt: Timestamp? = nil,
        crossed: Bool = false, initial: Bool = false, notifies: Bool = true, rule: Rule? = nil, estimated: Bool = false
    ) {
        self.kind = kind
        self.regionIndex = regionIndex
        self.identifier = identifier
        self.fix = fix
        self.confirmedAt = confirmedAt
        self.crossed = crossed
        self.initial = initial
        self.notifies = notifies
        self.rule = rule ?? (crossed ? .crossed : initial ? .initial : kind == .dwell ? .dwell : .margin)
        self.estimated = estimated
    }
}
