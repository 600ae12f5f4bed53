import WaymarkCore

/// When the GNSS may sleep (docs/semantics.md §4): after a fix, no region boundary can be crossed
/// before the device has covered (distance to the nearest boundary − the fix's uncertainty), at
/// most at the activity's maximum speed and, when its recent fixes are known, starting from its
/// recent speed with a margin and speeding up at a bounded rate (`ApproachBound`,
/// `RecentMotion`), so the receiver can be off until then, waking a hot start early. Significant change
/// and visits add their own circles (500 m, and the visit radius, around the fix), so they get a
/// fix at least as often as the device could leave them. Pure: replay and the daemon share it.
public struct GNSSSchedule: Sendable, Equatable {
    /// Metres per second no device of the activity exceeds.
    public var maximumSpeed: Double
    /// Seconds from power-on to the first fix (the profile's hot start).
    public var hotStart: Double
    /// Sleeping less than this is not worth a restart.
    public var minimumSleep: Double
    /// Uncertainty assumed for a fix that reports none (most GPX points), metres.
    public var defaultUncertainty: Double
    /// Radii of the circles around the fix that other services need (significant change, visits).
    public var serviceRadii: [Double]
    /// Longest sleep, seconds.
    public var maximumSleep: Double
    /// Metres per second per second a device may gain from its recent speed while the receiver
    /// sleeps (`RecentMotion`); the activity's (`acceleration(for:)`).
    public var acceleration: Double

    public init(
        maximumSpeed: Double, hotStart: Double, minimumSleep: Double, defaultUncertainty: Double = 10,
        serviceRadii: [Double] = [], maximumSleep: Double = 3600, acceleration: Double = 2
    ) {
        self.maximumSpeed = maximumSpeed
        self.hotStart = hotStart
        self.minimumSleep = minimumSleep
        self.defaultUncertainty = defaultUncertainty
        self.serviceRadii = serviceRadii
        self.maximumSleep = maximumSleep
        self.acceleration = acceleration
    }

    /// The schedule for a receiver described by `profile`: its hot start, and the shortest sleep
    /// that saves energy — one whose tracking draw exceeds the restart's (hot start × acquisition
    /// current ÷ tracking current; 1.14 s for the u-blox M8).
    public init(profile: PowerProfile, maximumSpeed: Double, serviceRadii: [Double] = [], acceleration: Double = 2) {
        let hotStart = profile.startTimes["hot"] ?? 1
        let acquiring = profile.states["acquiring"]?.power ?? 0
        let tracking = profile.states["tracking"]?.power ?? 0
        self.init(
            maximumSpeed: maximumSpeed, hotStart: hotStart,
            minimumSleep: tracking > 0 ? hotStart * acquiring / tracking : hotStart, serviceRadii: serviceRadii,
            acceleration: acceleration)
    }

    /// Metres within which a boundary matters: farther ones cannot shorten the longest sleep.
    public var reach: Double { maximumSleep * maximumSpeed }

    /// The time by which the receiver must have a fix again after `fix`, or nil to keep
    /// tracking (a boundary is too near to be worth sleeping, or something is due at once).
    /// `nearestBoundary` is the distance in metres to the nearest region boundary (`reach`
    /// when none is nearer); `due` the earliest time the region engine could report something
    /// without the device crossing a boundary first (a pending crossing's confirmation, a
    /// dwell), so the receiver is awake for it.
    /// `motion` is what the device's recent fixes say of its speed (fed `fix` already): with it,
    /// the device starts from its recent speed with a margin and speeds up at a bounded rate
    /// (`RecentMotion`), instead of being at the activity's maximum at once.
    public func wake(after fix: Fix, nearestBoundary: Double, due: Timestamp? = nil, motion: RecentMotion? = nil) -> Timestamp? {
        guard let time = fix.time else { return nil }
        var distance = min(nearestBoundary, reach)
        for radius in serviceRadii { distance = min(distance, radius) }
        let approach = motion?.approachBound(
            maximumSpeed: maximumSpeed, acceleration: acceleration, defaultUncertainty: defaultUncertainty, at: time)
            ?? ApproachBound(maximumSpeed: maximumSpeed, defaultUncertainty: defaultUncertainty)
        var sleep = min(approach.seconds(toReach: distance, uncertainty: fix.horizontalAccuracy), maximumSleep)
        if let due { sleep = min(sleep, due.seconds(since: time)) }
        guard sleep - hotStart >= minimumSleep else { return nil }
        return time.adding(seconds: sleep)
    }
}
