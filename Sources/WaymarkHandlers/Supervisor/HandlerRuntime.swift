/// What the supervisor keeps about one handler while the daemon runs.
struct HandlerRuntime {
    var registration: HandlerRegistration
    var forceQuit: Bool
    var state: HandlerState = .notRunning
    var stateSince: ContinuousClock.Instant
    var process: HandlerProcess?
    var connection: HandlerConnection?
    /// The secret its current process was launched with.
    var launchToken: String?
    var launchReason = ""
    /// When the current background period began (launch or resume).
    var backgroundStart: ContinuousClock.Instant?
    /// Open background tasks: token → name, and whether the expiration notice went out.
    var openTasks: [String: (name: String, warned: Bool)] = [:]
    var willSuspendSent = false
    /// Why the daemon is ending the process, when it is (a crash has none).
    var stopping: String?
    /// The highest event id sent on the current connection.
    var lastSent: Int64 = 0
    /// Consecutive crashes, and the earliest time of the next launch after one.
    var crashes = 0
    var notBefore: ContinuousClock.Instant?
    var nextTaskNumber = 0
    var counters = Counters()
    /// Its recent background periods, and the time they earn it.
    var standing = HandlerStanding()
    var period = Period()

    /// What the current background period has shown so far (`HandlerSupervisor+Standing`).
    struct Period {
        /// False once recorded, or while no period runs.
        var open = false
        var acknowledged = 0
        /// Its last acknowledgement or task end: when it was last seen doing our work.
        var lastWork: ContinuousClock.Instant?
        /// When it said `finished` truthfully.
        var finishedAt: ContinuousClock.Instant?
        var useful: Bool?
        var misreported = false
    }

    struct Counters {
        var launches = 0
        var resumes = 0
        var suspensions = 0
        var terminations = 0
        var crashes = 0
        var delivered = 0
        var acknowledged = 0
    }

    init(registration: HandlerRegistration, forceQuit: Bool, now: ContinuousClock.Instant) {
        self.registration = registration
        self.forceQuit = forceQuit
        self.stateSince = now
    }

    /// The end of the current background period: the budget, or while background tasks are
    /// open the cap on background time, both as its standing allows. Nil unless in the background.
    var deadline: ContinuousClock.Instant? {
        guard state == .background, let start = backgroundStart else { return nil }
        let limits = standing.limits(from: registration.limits)
        return start + .seconds(openTasks.isEmpty ? limits.budget : max(limits.budget, limits.maximumBackgroundTime))
    }

    /// Crash backoff: 1 s, doubling, at most 60 s.
    static func backoff(afterCrashes crashes: Int) -> Duration {
        .seconds(min(60, 1 << min(max(crashes - 1, 0), 6)))
    }
}
