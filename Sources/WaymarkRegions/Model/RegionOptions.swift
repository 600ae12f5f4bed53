/// How a region wants to be monitored (docs/semantics.md §3). In GeoJSON these are feature properties
/// of the same names; absent ones take the defaults.
public struct RegionOptions: Sendable, Equatable {
    /// Report `enter` transitions (`notifyOnEntry`, default true). The state changes either way.
    public var notifyOnEntry: Bool
    /// Report `exit` transitions (`notifyOnExit`, default true).
    public var notifyOnExit: Bool
    /// Seconds inside after an entry before a `dwell` transition (`loiteringDelay`); nil: no dwell.
    public var loiteringDelay: Double?
    /// Metres beyond the boundary a fix must be to confirm a crossing (`margin`, or its older
    /// name `hysteresis`); nil: the
    /// monitor's default, the smaller of 200 m and a fifth of the region's size.
    public var hysteresis: Double?
    /// Seconds the new side must hold before a crossing is confirmed (`confirmationTime`); nil: 20.
    public var confirmationTime: Double?
    /// Report an `enter` (marked `initial`) when the first fix after registration is inside
    /// (`initialTrigger`, default false: registering a region produces no event).
    public var initialTrigger: Bool
    /// Beacon regions: seconds without a matching advertisement before an exit (`exitTimeout`);
    /// nil: the beacon monitor's default, 30 s (docs/semantics.md §3). Ignored by geographic regions.
    public var exitTimeout: Double?
    /// Seconds the inside must hold before an entry is confirmed (`enterDelay`); nil:
    /// `confirmationTime`, else 20. A home zone that should not announce a drive-by sets more.
    public var enterDelay: Double?
    /// Seconds the outside must hold before an exit is confirmed (`exitDelay`); nil:
    /// `confirmationTime`, else 20.
    public var exitDelay: Double?
    /// Fixes whose `horizontalAccuracy` is worse than this many metres neither start, cancel nor
    /// confirm a crossing of this region (`maxAccuracy`); nil: no limit. They still reach every
    /// other region and the services.
    public var maxAccuracy: Double?
    /// Rank among overlapping regions for the device's place (`priority`, higher wins); nil:
    /// 0, and among equal priorities the smallest region wins (docs/semantics.md §3).
    public var priority: Int?

    public init(
        notifyOnEntry: Bool = true, notifyOnExit: Bool = true, loiteringDelay: Double? = nil,
        hysteresis: Double? = nil, confirmationTime: Double? = nil, initialTrigger: Bool = false,
        exitTimeout: Double? = nil, enterDelay: Double? = nil, exitDelay: Double? = nil, maxAccuracy: Double? = nil,
        priority: Int? = nil
    ) {
        self.exitTimeout = exitTimeout
        self.enterDelay = enterDelay
        self.exitDelay = exitDelay
        self.maxAccuracy = maxAccuracy
        self.priority = priority
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.loiteringDelay = loiteringDelay
        self.hysteresis = hysteresis
        self.confirmationTime = confirmationTime
        self.initialTrigger = initialTrigger
    }

    /// The property names, as GeoJSON features and the store's `properties` carry them.
    public enum Key {
        public static let notifyOnEntry = "notifyOnEntry"
        public static let notifyOnExit = "notifyOnExit"
        public static let loiteringDelay = "loiteringDelay"
        public static let hysteresis = "hysteresis"
        public static let confirmationTime = "confirmationTime"
        public static let initialTrigger = "initialTrigger"
        public static let exitTimeout = "exitTimeout"
        public static let enterDelay = "enterDelay"
        public static let exitDelay = "exitDelay"
        /// `hysteresis`'s other name, the one the docs use.
        public static let margin = "margin"
        public static let maxAccuracy = "maxAccuracy"
        public static let priority = "priority"
    }
}
