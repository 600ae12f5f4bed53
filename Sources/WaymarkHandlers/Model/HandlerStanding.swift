/// How one background period (a launch or resume for events, until suspension or exit) went,
/// for the rule that quick and honest handlers are favoured (docs/semantics.md §1).
public struct HandlerSession: Sendable, Equatable {
    public enum Outcome: String, Sendable, Equatable {
        /// Done within its time: said `finished` truthfully, or had acknowledged every event and
        /// ended every background task when its time ran out, or exited by itself having done so.
        case quick
        /// Not done when its time ran out: events unacknowledged or background tasks still open.
        case slow
        /// Said `finished` while it was not (tasks open, events it had been sent unacknowledged),
        /// or claimed useful work having acknowledged nothing.
        case misreported
    }

    public var outcome: Outcome
    /// Seconds from the launch or resume to when it was done (the `finished` message, else its
    /// last acknowledgement or task end), or to the end of its time when it never was.
    public var seconds: Double
    /// What it said of its work in `finished`; nil when it did not say.
    public var useful: Bool?

    public init(outcome: Outcome, seconds: Double, useful: Bool? = nil) {
        self.outcome = outcome
        self.seconds = seconds
        self.useful = useful
    }
}

/// A handler's record over its recent background periods, and the time it gets for the next
/// one. The background-fetch rule of mobile systems: every slow period costs a point and every
/// misreport two; each point takes 15 % off the registered budget and background-task cap, down to
/// a quarter of them. Quick, truthful periods push old points out of the window, so a handler
/// that mends its ways is back to full time after `window` of them.
public struct HandlerStanding: Sendable, Equatable {
    /// Periods remembered, most recent last.
    public private(set) var sessions: [HandlerSession]

    public static let window = 10
    static let cutPerPoint = 0.15
    static let floor = 0.25

    public init(sessions: [HandlerSession] = []) {
        self.sessions = Array(sessions.suffix(Self.window))
    }

    public mutating func record(_ session: HandlerSession) {
        sessions.append(session)
        if sessions.count > Self.window { sessions.removeFirst(sessions.count - Self.window) }
    }

    public func count(_ outcome: HandlerSession.Outcome) -> Int { sessions.count { $0.outcome == outcome } }

    public var points: Int { count(.slow) + 2 * count(.misreported) }

    /// The share of its registered time the handler gets now: 1 with a clean record.
    public var share: Double { max(Self.floor, 1 - Self.cutPerPoint * Double(points)) }

    /// The registered limits scaled by `share` (the memory limit is not time and stays).
    public func limits(from registered: HandlerLimits) -> HandlerLimits {
        var limits = registered
        limits.budget = registered.budget * share
        limits.maximumBackgroundTime = registered.maximumBackgroundTime * share
        return limits
    }

    /// The median of the quick periods' seconds to finish; nil without any.
    public var medianQuickSeconds: Double? {
        let seconds = sessions.filter { $0.outcome == .quick }.map(\.seconds).sorted()
        guard !seconds.isEmpty else { return nil }
        let middle = seconds.count / 2
        return seconds.count % 2 == 1 ? seconds[middle] : (seconds[middle - 1] + seconds[middle]) / 2
    }
}
