import WaymarkCore

/// The handler lifecycle of docs/semantics.md §1 as a pure value: budgets, `willSuspend`,
/// expiration notices, suspension and termination, quick-and-honest standing, crash backoff,
/// purge and the launch and relaunch rules, for every registered handler.
///
/// It takes inputs (an event queued, a process spawned or exited, a message from a handler, a
/// user command, time passing) each with the instant it happened, and returns the actions that
/// follow (spawn, signal, send, persist); it does no I/O and reads no clock. `HandlerSupervisor`
/// performs the actions, feeds their results back, and sleeps until `nextDeadline`.
public struct HandlerLifecycle: Sendable {
    /// The fixed numbers of docs/semantics.md §1.2 and §1.4 (the purge limit is configurable).
    public struct Settings: Sendable, Equatable {
        /// Seconds before the end of background time at which expiration notices go out (5 s).
        public var expirationNotice = 5.0
        /// Seconds before suspension at which `willSuspend` goes out (1 s).
        public var suspendNotice = 1.0
        /// Suspended handlers beyond this many are terminated, oldest first (default 8).
        public var maximumSuspended = 8
        /// Seconds an exits-on-suspend handler has after SIGTERM before SIGKILL (3 s).
        public var terminationGrace = 3.0

        public init() {}
    }

    public let settings: Settings
    /// Every registered handler, by name.
    public internal(set) var handlers: [String: Handler] = [:]
    /// The instant of the input being handled (the latest one between inputs).
    public internal(set) var now: Timestamp
    /// Set by `shutdown`: nothing is launched or resumed any more.
    var shuttingDown = false
    /// Running handlers were warned of the current memory-pressure episode.
    var memoryWarned = false
    /// Critical memory-pressure readings in a row.
    var criticalReadings = 0
    /// The actions of the input being handled.
    var actions: [Action] = []

    public init(settings: Settings = Settings(), now: Timestamp) {
        self.settings = settings
        self.now = now
    }

    /// Applies `input`, which happened at `now`, then the rules that fall due by `now`, and
    /// returns what the shell must do, in order.
    public mutating func handle(_ input: Input, at now: Timestamp) -> [Action] {
        handle([input], at: now)
    }

    /// Applies `inputs` in order, all at `now`, then the rules that fall due by `now`: the
    /// same actions as handling them one by one at that instant, for a burst (acknowledgements
    /// read together, events committed together) at the cost of one pass over the deadlines.
    public mutating func handle(_ inputs: [Input], at now: Timestamp) -> [Action] {
        self.now = now
        actions = []
        for input in inputs { apply(input) }
        advance()
        let result = actions
        actions = []
        return result
    }

    private mutating func apply(_ input: Input) {
        switch input {
        case .registered(let registered): register(registered)
        case .eventsQueued(let name, let reason): eventsQueued(name, reason: reason)
        case .queueRead(let name, let wakingKind): queueRead(name, wakingKind: wakingKind)
        case .spawned(let name): spawned(name)
        case .spawnFailed(let name, let message): spawnFailed(name, message: message)
        case .exited(let name, let code, let signal): exited(name, code: code, signal: signal)
        case .connected(let name): connected(name)
        case .disconnected(let name): disconnected(name)
        case .delivered(let name, let sent, let through, let more): delivered(name, sent: sent, through: through, more: more)
        case .acknowledged(let name, let id): acknowledged(name, id: id)
        case .beginBackgroundTask(let name, let taskName): beginBackgroundTask(name, taskName: taskName)
        case .endBackgroundTask(let name, let token): endBackgroundTask(name, token: token)
        case .backgroundTimeRemaining(let name): send(name, .backgroundTimeRemaining(remaining(name)))
        case .finished(let name, let useful, let through): finished(name, useful: useful, through: through)
        case .userQuit(let name): userQuit(name)
        case .userLaunch(let name): userLaunch(name)
        case .enterBackground(let name, let byItself): enterBackground(name, byItself: byItself)
        case .fetchResult(let name, let result): fetchResult(name, result)
        case .memoryPressure(let level, let sizes): memoryPressure(level, suspendedSizes: sizes)
        case .shutdown: shutdown()
        case .terminate: terminate()
        case .tick: break
        }
    }

    /// Records a state change with its reason, to be logged (docs/semantics.md §1.1).
    mutating func transition(_ name: String, to state: HandlerState, reason: String) {
        guard handlers[name] != nil else { return }
        handlers[name]!.state = state
        handlers[name]!.stateSince = now
        actions.append(.logState(handler: name, state, reason: reason))
    }

    /// A message to the handler, when it is connected.
    mutating func send(_ name: String, _ message: Message) {
        guard handlers[name]?.connected == true else { return }
        actions.append(.send(handler: name, message))
    }

    /// Seconds of background time left; nil unless in the background (active: unbounded).
    func remaining(_ name: String) -> Double? {
        guard let deadline = handlers[name]?.deadline else { return nil }
        return max(deadline.seconds(since: now), 0)
    }
}
