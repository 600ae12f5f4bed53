import WaymarkCore
import WaymarkServices

/// A registered handler (docs/semantics.md §1): an executable launched, never through a shell, for the
/// events of its subscription.
public struct HandlerRegistration: Sendable, Equatable, Codable {
    /// 1–64 letters, digits, `.`, `_`, `-`.
    public var name: String
    /// Absolute path of the executable.
    public var executable: String
    public var arguments: [String]
    /// Working directory of the process (default `/`).
    public var workingDirectory: String
    /// Names of the daemon's environment variables passed on (besides Waymark's own `WAYMARK_*`
    /// and a fixed `PATH`); nothing else reaches the handler.
    public var environment: [String]
    public var subscription: HandlerSubscription
    /// Relaunched for location events after a force-quit (default on, as iOS does).
    public var relaunchAfterForceQuit: Bool
    /// Launched and resumed in the background at all (default on).
    public var backgroundRefresh: Bool
    /// Terminated (SIGTERM, then SIGKILL) instead of suspended when its budget is spent.
    public var exitsOnSuspend: Bool
    public var limits: HandlerLimits
    /// Background fetch: the least seconds between periodic wakes (`--fetch-interval`), a
    /// minimum, not a promise (docs/semantics.md §1.5); nil: none.
    public var fetchInterval: Double?

    public init(
        name: String, executable: String, arguments: [String] = [], workingDirectory: String = "/",
        environment: [String] = [], subscription: HandlerSubscription, relaunchAfterForceQuit: Bool = true,
        backgroundRefresh: Bool = true, exitsOnSuspend: Bool = false, limits: HandlerLimits = HandlerLimits(),
        fetchInterval: Double? = nil
    ) {
        self.fetchInterval = fetchInterval
        self.name = name
        self.executable = executable
        self.arguments = arguments
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.subscription = subscription
        self.relaunchAfterForceQuit = relaunchAfterForceQuit
        self.backgroundRefresh = backgroundRefresh
        self.exitsOnSuspend = exitsOnSuspend
        self.limits = limits
    }

    /// Whether `name` can name a handler.
    public static func isValidName(_ name: String) -> Bool { ShortName.isValid(name) }
}

/// What a handler is woken for.
public struct HandlerSubscription: Sendable, Equatable, Codable {
    /// Location services (standard, significant change, visits, timeline) with their filters.
    public var services: ServiceSubscriptionSettings
    /// Region identifiers monitored for it; `allRegions` takes every region.
    public var regions: [String]
    public var allRegions: Bool
    /// Beacon region identifiers whose entries and exits it gets; `allBeacons` takes every one.
    public var beacons: [String]
    public var allBeacons: Bool
    /// Beacon regions it ranges: about once a second while it runs, each visible matching beacon
    /// with smoothed RSSI, distance and proximity (ranging never launches or resumes it).
    public var ranging: [String]
    /// `always` or `whenInUse`.
    public var authorizationLevel: String
    /// `precise` or `approximate`.
    public var precision: String
    /// The devices whose events it gets (docs/devices.md); empty: every device's.
    public var devices: [String]
    /// Accessory changes: receivers attached and removed, the Bluetooth adapter up and down,
    /// the fix lost and regained (docs/semantics.md §1.7).
    public var accessory: Bool

    public init(
        services: ServiceSubscriptionSettings = ServiceSubscriptionSettings(), regions: [String] = [],
        allRegions: Bool = false, beacons: [String] = [], allBeacons: Bool = false, ranging: [String] = [],
        authorizationLevel: String = "always", precision: String = "precise", devices: [String] = [],
        accessory: Bool = false
    ) {
        self.devices = devices
        self.accessory = accessory
        self.services = services
        self.regions = regions
        self.allRegions = allRegions
        self.beacons = beacons
        self.allBeacons = allBeacons
        self.ranging = ranging
        self.authorizationLevel = authorizationLevel
        self.precision = precision
    }

    public var monitorsRegions: Bool { allRegions || !regions.isEmpty }
    public var monitorsBeacons: Bool { allBeacons || !beacons.isEmpty || !ranging.isEmpty }

    /// The authorization it was given.
    public var authorization: Authorization {
        Authorization(
            level: Authorization.Level(rawValue: authorizationLevel) ?? .always,
            precision: Authorization.Precision(rawValue: precision) ?? .precise)
    }

    /// Whether region `identifier`'s transitions go to it (never with approximate authorization).
    public func wantsRegion(_ identifier: String) -> Bool {
        authorization.allowsRegionMonitoring && (allRegions || regions.contains(identifier))
    }

    /// Whether beacon region `identifier`'s transitions go to it (never with approximate authorization).
    public func wantsBeacon(_ identifier: String) -> Bool {
        authorization.allowsBeaconMonitoring && (allBeacons || beacons.contains(identifier))
    }
}

/// The location services of a subscription as stored (Codable mirror of `ServiceSubscription`).
public struct ServiceSubscriptionSettings: Sendable, Equatable, Codable {
    public var standard: Bool
    public var desiredAccuracy: String?
    public var distanceFilter: Double?
    /// Standard updates pause automatically when stationary (`paused`/`resumed` records).
    public var pauses: Bool
    /// Standard updates held back and delivered as a batch every so many metres and/or seconds.
    public var deferredDistance: Double?
    public var deferredInterval: Double?
    public var significantChange: Bool
    public var visits: Bool
    /// Timeline stays and trips (`stay`/`trip` records; the visit rule's defaults).
    public var timeline: Bool
    public var activity: String

    public init(
        standard: Bool = false, desiredAccuracy: String? = nil, distanceFilter: Double? = nil, pauses: Bool = false,
        deferredDistance: Double? = nil, deferredInterval: Double? = nil,
        significantChange: Bool = false, visits: Bool = false, timeline: Bool = false, activity: String = "other"
    ) {
        self.standard = standard
        self.desiredAccuracy = desiredAccuracy
        self.distanceFilter = distanceFilter
        self.pauses = pauses
        self.deferredDistance = deferredDistance
        self.deferredInterval = deferredInterval
        self.significantChange = significantChange
        self.visits = visits
        self.timeline = timeline
        self.activity = activity
    }

    public var isEmpty: Bool { !standard && !significantChange && !visits && !timeline }

    /// The services to run for it, under `precision`.
    public func subscription(precision: Authorization.Precision) -> ServiceSubscription {
        var subscription = ServiceSubscription(activity: ActivityType(rawValue: activity) ?? .other)
        if standard {
            var configuration = StandardUpdates.Configuration()
            if let desiredAccuracy, let accuracy = DesiredAccuracy(argument: desiredAccuracy) { configuration.desiredAccuracy = accuracy }
            configuration.distanceFilter = distanceFilter
            configuration.pausesAutomatically = pauses
            configuration.deferredDistance = deferredDistance
            configuration.deferredInterval = deferredInterval
            subscription.standard = configuration
        }
        if significantChange { subscription.significantChange = SignificantChangeThresholds() }
        if visits { subscription.visits = VisitThresholds() }
        if timeline { subscription.timeline = VisitThresholds() }
        subscription.authorization.precision = precision
        return subscription
    }
}

/// Time and resource limits of a handler.
public struct HandlerLimits: Sendable, Equatable, Codable {
    /// Seconds of background execution after a launch or resume (default 10).
    public var budget: Double
    /// Most seconds background tasks may extend it to (default 180).
    public var maximumBackgroundTime: Double
    /// Address-space limit in bytes (RLIMIT_AS), if any.
    public var memoryBytes: Int?

    public init(budget: Double = 10, maximumBackgroundTime: Double = 180, memoryBytes: Int? = nil) {
        self.budget = budget
        self.maximumBackgroundTime = maximumBackgroundTime
        self.memoryBytes = memoryBytes
    }
}

extension HandlerSubscription {
    /// Whether it gets the events of `device`.
    public func wantsDevice(_ device: String) -> Bool { devices.isEmpty || devices.contains(device) }
}
