import WaymarkCore

/// What the device is doing, which bounds how fast it can plausibly move between two fixes
/// (the activity types of Core Location's `CLActivityType`, docs/semantics.md §2).
public enum ActivityType: String, Sendable, CaseIterable {
    /// On foot or by bicycle: at most 15 m/s (54 km/h, a fast downhill cyclist).
    case fitness
    /// In a road vehicle: at most 90 m/s (324 km/h).
    case automotive
    /// Unknown or mixed: at most 60 m/s (216 km/h, a fast train).
    case other
    /// In an aircraft: at most 350 m/s (1260 km/h, a jet's ground speed with a tail wind).
    case airborne

    /// The default speed bound, metres per second, above which a jump between two fixes is
    /// taken as impossible.
    public var maximumSpeed: Double {
        switch self {
        case .fitness: 15
        case .automotive: 90
        case .other: 60
        case .airborne: 350
        }
    }
}

/// Why the validation gate dropped a fix. Raw values are the names used in logs and counts.
public enum DropReason: String, Sendable, Hashable, CaseIterable {
    /// The receiver reported no solution (`mode == .none`).
    case noFix
    /// A non-finite or out-of-range latitude or longitude.
    case invalidCoordinate
    /// The fix has no time.
    case noTime
    /// The fix's time is later than the moment it was received plus
    /// `ValidationGate.futureTolerance` (devices over the network). It does not become the previous
    /// fix: one fix dated 2200 would otherwise make every later real fix go backwards.
    case fromFuture
    /// The fix is earlier than the previous admitted fix.
    case timeBackwards
    /// The fix has the same time as the previous admitted fix.
    case duplicate
    /// Reaching the fix from the previous admitted fix needs a speed above the activity's bound.
    case impossibleJump
    /// The fix's `horizontalAccuracy` is worse (larger) than the desired accuracy.
    case inaccurate
}

/// The gate in front of every location stream (docs/semantics.md §2, "Bad fixes"): admits a fix or
/// names the first rule it breaks, in this order — no fix, invalid coordinate, no time, from the
/// future (when the caller knows when the fix was received), time going backwards, duplicate
/// time, impossible jump, inaccurate.
///
/// Time and jump rules compare with the previous *admitted* fix, so one bad fix cannot poison
/// the ones after it. A fix without `mode` or without `horizontalAccuracy` is not dropped for
/// lacking them (a GPX point usually has neither). Pure; counts what it did.
public struct ValidationGate: Sendable {
    /// The activity whose speed bound applies unless `maximumSpeed` overrides it.
    public var activityType: ActivityType
    /// Metres per second; a fix reached from the previous admitted one faster than this is an
    /// impossible jump. Exactly this speed is admitted (to a micrometre over the interval).
    public var maximumSpeed: Double
    /// Metres; a fix whose `horizontalAccuracy` is larger is dropped as inaccurate. `nil` keeps
    /// every accuracy. Exactly this accuracy is admitted.
    public var maximumHorizontalAccuracy: Double?

    /// How many fixes were admitted.
    public private(set) var accepted = 0
    /// How many fixes were dropped, by reason (absent reasons count zero).
    public private(set) var dropped: [DropReason: Int] = [:]

    private var previous: (time: Timestamp, coordinate: Coordinate)?

    /// This gate's judgement of what comes next, with its counts back at zero: what a restart
    /// keeps of a gate that re-read stored fixes (they were counted before the restart).
    public var uncounted: ValidationGate {
        var copy = self
        copy.accepted = 0
        copy.dropped = [:]
        return copy
    }

    /// Metres by which a jump may exceed `maximumSpeed × interval` and still count as at the
    /// bound: a point placed exactly *d* metres away measures *d* only to about a nanometre, so
    /// without this a fix at exactly the bound could be dropped by rounding.
    static let distanceTolerance = 1e-6

    /// Seconds a fix's time may lie after the moment it was received and still be admitted:
    /// 5 minutes. Phones take their time from the network or from GPS and are seldom more than
    /// a few seconds off, but a tracker without network time can drift, and the daemon's own
    /// clock may be a little behind; five minutes covers any honest skew, while a fix hours or
    /// centuries ahead (a wrong time zone, a broken clock, a hostile sender) is refused.
    public static let futureTolerance = 300.0

    /// Whether a fix dated `time`, received at `receivedAt`, is from the future (`fromFuture`).
    public static func isFromFuture(_ time: Timestamp, receivedAt: Timestamp) -> Bool {
        time.seconds(since: receivedAt) > futureTolerance
    }

    /// - Parameters:
    ///   - activityType: chooses the default speed bound (see `ActivityType.maximumSpeed`).
    ///   - maximumSpeed: metres per second, overriding the activity's bound.
    ///   - maximumHorizontalAccuracy: the desired accuracy in metres, or `nil` for any.
    public init(
        activityType: ActivityType = .other, maximumSpeed: Double? = nil,
        maximumHorizontalAccuracy: Double? = nil
    ) {
        self.activityType = activityType
        self.maximumSpeed = maximumSpeed ?? activityType.maximumSpeed
        self.maximumHorizontalAccuracy = maximumHorizontalAccuracy
    }

    /// Checks `fix` against the rules in order: `nil` when it is admitted (and becomes the
    /// previous fix for the next check), otherwise the first reason it is dropped.
    ///
    /// - Parameter receivedAt: when a live source received the fix, for the future rule; `nil`
    ///   for a recorded track (a GPX replay, an export, stored fixes re-read after a restart),
    ///   where "now" says nothing about the fixes' times.
    public mutating func admit(_ fix: Fix, receivedAt: Timestamp? = nil) -> DropReason? {
        if let reason = check(fix, receivedAt: receivedAt) {
            dropped[reason, default: 0] += 1
            return reason
        }
        accepted += 1
        if let time = fix.time { previous = (time, fix.coordinate) }
        return nil
    }

    private func check(_ fix: Fix, receivedAt: Timestamp?) -> DropReason? {
        if fix.mode == FixMode.none { return .noFix }
        if !fix.coordinate.isValid { return .invalidCoordinate }
        guard let time = fix.time else { return .noTime }
        if let receivedAt, Self.isFromFuture(time, receivedAt: receivedAt) { return .fromFuture }
        if let previous {
            if time < previous.time { return .timeBackwards }
            if time == previous.time { return .duplicate }
            let reach = maximumSpeed * time.seconds(since: previous.time) + Self.distanceTolerance
            if !Geodesic.isWithin(previous.coordinate, fix.coordinate, metres: reach) { return .impossibleJump }
        }
        if let accuracy = fix.horizontalAccuracy, let limit = maximumHorizontalAccuracy, !(accuracy <= limit) {
            return .inaccurate
        }
        return nil
    }
}
