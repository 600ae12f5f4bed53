import WaymarkCore

/// What one subscriber asked for (docs/semantics.md §2): which location services, with which filters,
/// under which authorization. `waymark replay`'s service flags build one; the daemon holds one
/// per configured subscription (and, later, per handler).
public struct ServiceSubscription: Sendable, Hashable {
    /// Standard updates with their filters, when asked for.
    public var standard: StandardUpdates.Configuration?
    /// Significant-change updates with their thresholds, when asked for.
    public var significantChange: SignificantChangeThresholds?
    /// Visits with their thresholds, when asked for.
    public var visits: VisitThresholds?
    /// Timeline stays and trips (`TimelineService`), with the visit rule their stays follow, when asked for.
    public var timeline: VisitThresholds?
    /// Bounds the speed of plausible jumps in the subscription's validation gate.
    public var activity: ActivityType
    /// When-in-use or always; precise or approximate (coordinates coarsened, no region monitoring).
    public var authorization: Authorization

    public init(
        standard: StandardUpdates.Configuration? = nil, significantChange: SignificantChangeThresholds? = nil,
        visits: VisitThresholds? = nil, timeline: VisitThresholds? = nil, activity: ActivityType = .other,
        authorization: Authorization = Authorization(level: .always)
    ) {
        self.standard = standard
        self.significantChange = significantChange
        self.visits = visits
        self.timeline = timeline
        self.activity = activity
        self.authorization = authorization
    }

    /// Whether no location service is asked for (region monitoring alone needs none).
    public var isEmpty: Bool { standard == nil && significantChange == nil && visits == nil && timeline == nil }

    /// Coordinates the subscriber receives are coarsened to the ~3 km grid.
    public var isApproximate: Bool { authorization.precision == .approximate }

    /// The validation gate for this subscription: the activity's speed bound, and the desired
    /// accuracy of standard updates when those are asked for (a fix reporting a larger error is
    /// dropped as `inaccurate` for every service of the subscription, as Core Location's
    /// `desiredAccuracy` is one setting of the manager).
    public func makeGate() -> ValidationGate {
        ValidationGate(
            activityType: activity, maximumHorizontalAccuracy: standard?.desiredAccuracy.maximumHorizontalAccuracy)
    }

    /// Fresh services, in the order their records are emitted for one fix: standard updates,
    /// significant change, visits, timeline; pauses, visits and the timeline judge silences by
    /// `silence` (its threshold; a visit's own radius).
    public func makeServices(silence: SilenceRule = .standard) -> [any LocationService] {
        var services: [any LocationService] = []
        if let standard { services.append(StandardUpdates(configuration: standard, silence: silence)) }
        if let significantChange {
            services.append(SignificantChangeFilter(
                minimumDistance: significantChange.minimumDistance, minimumInterval: significantChange.minimumInterval))
        }
        if let visits { services.append(VisitDetector(radius: visits.radius, minimumDuration: visits.minimumDuration, silenceThreshold: silence.threshold)) }
        if let timeline {
            services.append(TimelineService(thresholds: timeline, silenceThreshold: silence.threshold, gate: makeGate()))
        }
        return services
    }
}

/// The two bounds of the significant-change service; Core Location's 500 m / 300 s by default.
public struct SignificantChangeThresholds: Sendable, Hashable {
    /// Metres (WGS84 geodesic) from the last significant location, inclusive.
    public var minimumDistance: Double
    /// Seconds after the last significant location, inclusive.
    public var minimumInterval: Double

    public init(minimumDistance: Double = 500, minimumInterval: Double = 300) {
        self.minimumDistance = minimumDistance
        self.minimumInterval = minimumInterval
    }
}

/// What makes a stay a visit: within `radius` metres for at least `minimumDuration` seconds
/// (100 m / 5 min by default).
public struct VisitThresholds: Sendable, Hashable {
    public var radius: Double
    public var minimumDuration: Double

    public init(radius: Double = 100, minimumDuration: Double = 300) {
        self.radius = radius
        self.minimumDuration = minimumDuration
    }
}
