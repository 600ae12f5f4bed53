import Foundation
import Logging
import WaymarkCore
import WaymarkStore

/// Launches, feeds, suspends, resumes and relaunches handlers (docs/semantics.md §1): the I/O shell
/// around `HandlerLifecycle`. It feeds the lifecycle what happens (with the time on the daemon's
/// clock), performs the actions it returns (processes, signals, the socket, the store), and
/// sleeps until its next deadline. Events reach it already written to the store; it delivers
/// each handler's unacknowledged events in id order whenever the handler can run, and never
/// lets one handler hold up another.
public actor HandlerSupervisor {
    public struct Settings: Sendable {
        /// Notices, purge limit and termination grace (docs/semantics.md §1.2, §1.4).
        public var lifecycle = HandlerLifecycle.Settings()
        /// Where handlers' stdout and stderr go (`NAME.log`); nil: /dev/null.
        public var logDirectory: String?
        /// Passed on to handlers from the daemon's environment when a registration allows them.
        public var environment: [String: String] = ProcessInfo.processInfo.environment

        public init() {}
    }

    /// Answers handlers' queries (region state, last location) as JSON values.
    public struct Queries: Sendable {
        public var regionState: @Sendable (String) async -> String
        public var lastLocation: @Sendable () async -> String

        public init(regionState: @escaping @Sendable (String) async -> String, lastLocation: @escaping @Sendable () async -> String) {
            self.regionState = regionState
            self.lastLocation = lastLocation
        }
    }

    /// A process of ours and the secret it was launched with.
    struct Launched {
        var process: HandlerProcess
        var token: String
    }

    let store: WaymarkStore
    let socketPath: String
    let settings: Settings
    let queries: Queries
    let logger: Logger
    let clock: any WallClock
    var lifecycle: HandlerLifecycle
    var processes: [String: Launched] = [:]
    var connections: [String: HandlerConnection] = [:]
    /// The sleep of `run` until the lifecycle's next deadline, and that deadline.
    var sleeper: Task<Void, Never>?
    var sleepingUntil: Timestamp?

    public init(
        store: WaymarkStore, socketPath: String, settings: Settings = Settings(), queries: Queries, clock: any WallClock,
        logger: Logger
    ) {
        self.store = store
        self.socketPath = socketPath
        self.settings = settings
        self.queries = queries
        self.clock = clock
        self.logger = logger
        lifecycle = HandlerLifecycle(settings: settings.lifecycle, now: clock.now)
    }

    /// Reads the registrations from the store: new handlers are added, removed ones are
    /// terminated and forgotten, changed ones take effect at their next launch.
    public func reload() throws {
        var registered: [HandlerLifecycle.Registered] = []
        for handler in try store.handlers() {
            guard let registration = try? HandlerRegistration.decode(handler.registrationJSON) else {
                logger.error("Unreadable handler registration", metadata: ["handler": "\(handler.name)"])
                continue
            }
            let standing = lifecycle.handlers[handler.name] == nil ? storedStanding(handler.name) : HandlerStanding()
            registered.append(.init(registration, forceQuit: handler.forceQuit, standing: standing))
        }
        feed(.registered(registered))
    }

    /// The registrations in force, for routing events.
    public func registrations() -> [HandlerRegistration] { lifecycle.handlers.values.map(\.registration) }

    /// Events were queued for `handler` (reason: the kind of the newest): deliver or launch.
    public func eventsQueued(for handler: String, reason: String) {
        feed(.eventsQueued(handler: handler, reason: reason))
    }

    /// Hands `input` to the lifecycle at the clock's time, performs what follows, and wakes
    /// `run` when a deadline came forward.
    func feed(_ input: HandlerLifecycle.Input) {
        for action in lifecycle.handle(input, at: clock.now) { perform(action) }
        if let sleepingUntil, let next = lifecycle.nextDeadline, next < sleepingUntil { sleeper?.cancel() }
    }

    /// The stored periods a handler starts with when the daemon (re)loads it.
    func storedStanding(_ name: String) -> HandlerStanding {
        HandlerStanding(stored: (try? store.handlerSessions(handler: name, limit: HandlerStanding.window)) ?? [])
    }
}
