/// Which monitoring mode a phone should use after a report (docs/devices.md, "Batteries"). Move
/// mode (the GNSS on, a report every `moveInterval` s or `moveDisplacement` m) is needed only
/// near a boundary the phone cannot watch itself — a polygon or a circle under 100 m, which the
/// phone holds as a larger trigger circle (`PhoneGeofence`) — because only precise fixes decide
/// such a crossing. Everywhere else significant mode (cell and Wi-Fi positions, the phone's own
/// geofencing of the regions it holds) does, at a fraction of the energy.
///
/// The rule, with hysteresis so a phone near the edge of the reach does not flap:
/// - enter move when the nearest such boundary could be reached (`ApproachBound`) before the
///   phone would report again on its own: within `enterDistance` metres, or within
///   `enterHorizon` seconds at the phone's speed. Significant mode alone reports only every
///   `significantDistance` / `significantInterval`, but the trigger circle the phone holds for
///   each such region makes it report as it comes near, so the reach is the trigger's, not a
///   whole significant-change step (which kept a cyclist in move mode for most of a ride past
///   a region every few kilometres);
/// - leave move only when the boundary is clearly farther: `exitFactor` times both;
/// - leave move, whatever the distance, when the phone has been still for `stillDuration`
///   (`PhoneMotion`): a phone parked inside a polygon region crosses nothing until it moves,
///   and when it moves its own trigger circle or its next significant report says so.
/// Pure: the daemon's and the fleet's steering and the phone simulator share it.
public struct PhoneModePolicy: Sendable, Equatable {
    /// Metres a phone in significant mode may travel before it reports again: iOS's
    /// significant-change service reports after about 500 m (Apple, "startMonitoringSignificant
    /// LocationChanges"; OwnTracks' booklet, "Location data").
    public var significantDistance: Double
    /// Seconds between significant-mode reports at most as often: the same service reports not
    /// more than once every 5 minutes, so a fast phone covers speed × 300 s between reports.
    public var significantInterval: Double
    /// Metres: a boundary this near (less the fix's uncertainty) needs move mode. The trigger
    /// circle reaches 300 m past the region's enclosing circle (`PhoneGeofence`), and iOS reports
    /// its crossing about 20 s late; 250 m is what is left of it at cycling speed.
    public var enterDistance: Double
    /// Seconds: a boundary the phone could reach this soon at its speed needs move mode — what a
    /// phone covers while its trigger transition is delayed and its report travels.
    public var enterHorizon: Double
    /// How much farther (in distance and in time) the boundary must be before the phone leaves
    /// move mode. 2 leaves a band as wide as the reach itself, wider than a fix's wander.
    public var exitFactor: Double
    /// Metres per second assumed for a phone that seems not to move: a brisk walk. A phone that
    /// starts moving between two reports covers at least this before the policy hears of it.
    public var minimumSpeed: Double
    /// Metres: the most of a fix's stated uncertainty the bound counts. Cell positions state
    /// 1–2 km; counting all of it would send every phone on a cell fix into move mode, while the
    /// trigger circle the phone holds for a nearby region reports the approach anyway.
    public var maximumUncertainty: Double
    /// The approach bound's uncertainty for a fix that states none (OwnTracks' `acc` is optional).
    public var defaultUncertainty: Double
    /// Seconds a phone must stay within its still radius before it is sent back to significant
    /// mode: long enough for a red light or a queue not to count as parked.
    public var stillDuration: Double
    /// Metres: the smallest still radius; the radius is the larger of this and `stillAccuracyFactor`
    /// times the median stated accuracy of the still reports, so a phone's wandering fixes (tens of
    /// metres with GNSS, hundreds on Wi-Fi or cell) stay inside it.
    public var stillRadius: Double
    public var stillAccuracyFactor: Double
    /// Seconds between move-mode reports the phone is asked for: 10 s at 20 m/s is 200 m, finer
    /// than the smallest trigger margin, and a walker's 14 m per report is finer than most fixes'
    /// error. OwnTracks' defaults (300 s / 100 m on iOS) are far too coarse to decide a crossing.
    public var moveInterval: Int
    /// Metres between move-mode reports the phone is asked for (iOS reports after this
    /// displacement or `moveInterval`, whichever comes first): the size of a fix's error, so a
    /// crossing is placed to within about one fix.
    public var moveDisplacement: Int

    public init(
        significantDistance: Double = 500, significantInterval: Double = 300, enterDistance: Double = 250, enterHorizon: Double = 60,
        exitFactor: Double = 2, minimumSpeed: Double = 1.5,
        maximumUncertainty: Double = 200, defaultUncertainty: Double = 50, stillDuration: Double = 300, stillRadius: Double = 50,
        stillAccuracyFactor: Double = 2, moveInterval: Int = 10, moveDisplacement: Int = 20
    ) {
        self.significantDistance = significantDistance
        self.significantInterval = significantInterval
        self.enterDistance = enterDistance
        self.enterHorizon = enterHorizon
        self.exitFactor = exitFactor
        self.minimumSpeed = minimumSpeed
        self.maximumUncertainty = maximumUncertainty
        self.defaultUncertainty = defaultUncertainty
        self.stillDuration = stillDuration
        self.stillRadius = stillRadius
        self.stillAccuracyFactor = stillAccuracyFactor
        self.moveInterval = moveInterval
        self.moveDisplacement = moveDisplacement
    }

    public static let standard = PhoneModePolicy()

    /// The mode after a report. `current` is the mode decided after the previous report (the
    /// hysteresis keeps it), `distance` the metres from the report to the nearest boundary that
    /// needs precise fixes (`.infinity` when none), `uncertainty` the report's stated accuracy,
    /// `speed` its speed in m/s (reported or derived, `PhoneMotion.speed`), `stillFor` the
    /// seconds the phone has been within its still radius (`PhoneMotion.stillFor`).
    public func mode(
        current: PhoneMode, distance: Double, uncertainty: Double?, speed: Double?, stillFor: Double
    ) -> PhoneMode {
        if stillFor >= stillDuration { return .significant }
        let bound = ApproachBound(maximumSpeed: max(speed ?? 0, minimumSpeed), defaultUncertainty: defaultUncertainty)
        let seconds = bound.seconds(toReach: distance, uncertainty: min(bound.uncertainty(uncertainty), maximumUncertainty))
        let horizon = max(enterDistance / bound.maximumSpeed, enterHorizon)
        let near = seconds <= horizon * (current == .move ? exitFactor : 1)
        return near ? .move : .significant
    }
}
