import WaymarkCore

extension HandlerLifecycle {
    /// What the lifecycle keeps about one handler while the daemon runs.
    public struct Handler: Sendable, Equatable {
        public internal(set) var registration: HandlerRegistration
        public internal(set) var forceQuit: Bool
        public internal(set) var state: HandlerState = .notRunning
        public internal(set) var stateSince: Timestamp
        /// Whether a process of ours runs (spawned and not yet exited).
        public internal(set) var running = false
        /// A `spawn` asked for and not yet answered.
        var launching: Launch?
        public internal(set) var connected = false
        /// Whether the running process has connected (said `hello` with its token) since it was
        /// launched; one that never does fails at the end of its first background time.
        var helloSinceLaunch = false
        /// Set when the process is ended for never connecting: its end counts as a crash.
        var failedToConnect = false
        public internal(set) var launchReason = ""
        /// When the current background period began (launch or resume).
        public internal(set) var backgroundStart: Timestamp?
        /// Open background tasks, oldest first.
        public internal(set) var openTasks: [BackgroundTask] = []
        var willSuspendSent = false
        /// This background period has no budget, only its open tasks' time: it moved to the
        /// background without background refresh (docs/semantics.md §1.5).
        var noBudget = false
        /// Why the daemon is ending the process, when it is (a crash has none).
        public internal(set) var stopping: String?
        /// When SIGKILL follows a SIGTERM that has not ended the process.
        var killAt: Timestamp?
        /// The highest event id read for the current connection, and those sent on it that
        /// are unacknowledged.
        var lastSent: Int64 = 0
        var unacknowledgedSent: Set<Int64> = []
        /// The last delivery filled its window: more events wait in the store.
        var moreQueued = false
        /// Consecutive crashes, and the earliest time of the next launch after one.
        public internal(set) var crashes = 0
        public internal(set) var notBefore: Timestamp?
        var nextTaskNumber = 0
        public internal(set) var counters = Counters()
        /// Its recent background periods, and the time they earn it.
        public internal(set) var standing: HandlerStanding
        var period = Period()
        /// When its next background fetch falls due, and how much empty fetches have stretched
        /// its interval (`HandlerLifecycle+Fetch`).
        public internal(set) var fetchDue: Timestamp?
        var fetchBackoff = 1.0

        init(_ registered: Registered, since: Timestamp) {
            registration = registered.registration
            forceQuit = registered.forceQuit
            standing = registered.standing
            stateSince = since
        }

        /// Budget and task cap as its standing allows (docs/semantics.md §1.3).
        public var limits: HandlerLimits { standing.limits(from: registration.limits) }

        /// The end of the current background period: the budget, or while background tasks
        /// are open the cap on background time, both counted from the launch or resume
        /// (docs/semantics.md §1.2). Nil unless in the background.
        public var deadline: Timestamp? {
            guard state == .background, let start = backgroundStart else { return nil }
            let limits = limits
            let budget = noBudget ? 0 : limits.budget
            return start.adding(seconds: openTasks.isEmpty ? budget : max(budget, limits.maximumBackgroundTime))
        }
    }

    struct Launch: Sendable, Equatable {
        /// Started by the user: active, no budget.
        var active: Bool
        var reason: String
    }

    public struct BackgroundTask: Sendable, Equatable {
        public var token: String
        public var name: String
        /// Whether its expiration notice went out.
        public var warned = false
    }

    /// What the current background period has shown so far (`HandlerLifecycle+Standing`).
    struct Period: Sendable, Equatable {
        /// False once judged, or while no period runs.
        var open = false
        var acknowledged = 0
        /// Its last acknowledgement or task end: when it was last seen doing our work.
        var lastWork: Timestamp?
        /// When it said `finished` truthfully.
        var finishedAt: Timestamp?
        var useful: Bool?
        var misreported = false
    }

    public struct Counters: Sendable, Equatable {
        public var launches = 0
        public var resumes = 0
        public var suspensions = 0
        public var terminations = 0
        public var crashes = 0
        public var delivered = 0
        public var acknowledged = 0
    }
}
