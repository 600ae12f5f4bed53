import Foundation
import Logging
import WaymarkCore
import WaymarkStore

/// Launches, feeds, suspends, resumes and relaunches handlers (docs/semantics.md §1). Events reach it
/// already written to the store; it delivers each handler's unacknowledged events in id order
/// whenever the handler can run, and never lets one handler hold up another.
public actor HandlerSupervisor {
    public struct Settings: Sendable {
        /// Seconds before the end of background time at which expiration notices go out.
        public var expirationNotice = 5.0
        /// Seconds before suspension at which `willSuspend` goes out.
        public var suspendNotice = 1.0
        /// Suspended handlers beyond this many are terminated, oldest first.
        public var maximumSuspended = 8
        /// Seconds an exits-on-suspend handler has after SIGTERM before SIGKILL.
        public var terminationGrace = 3.0
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

    let store: WaymarkStore
    let socketPath: String
    let settings: Settings
    let queries: Queries
    let logger: Logger
    let clock = ContinuousClock()
    var runtimes: [String: HandlerRuntime] = [:]

    public init(store: WaymarkStore, socketPath: String, settings: Settings = Settings(), queries: Queries, logger: Logger) {
        self.store = store
        self.socketPath = socketPath
        self.settings = settings
        self.queries = queries
        self.logger = logger
    }

    /// Reads the registrations from the store: new handlers are added, removed ones are
    /// terminated and forgotten, changed ones take effect at their next launch.
    public func reload() throws {
        let stored = try store.handlers()
        let now = clock.now
        var seen = Set<String>()
        for handler in stored {
            seen.insert(handler.name)
            guard let registration = try? HandlerRegistration.decode(handler.registrationJSON) else {
                logger.error("Unreadable handler registration", metadata: ["handler": "\(handler.name)"])
                continue
            }
            if runtimes[handler.name] == nil {
                runtimes[handler.name] = HandlerRuntime(registration: registration, forceQuit: handler.forceQuit, now: now)
                runtimes[handler.name]!.standing = storedStanding(handler.name)
            } else {
                runtimes[handler.name]!.registration = registration
                runtimes[handler.name]!.forceQuit = handler.forceQuit
            }
        }
        for name in runtimes.keys where !seen.contains(name) {
            stop(name, reason: "unregistered", signal: SIGKILL)
            runtimes[name] = nil
        }
        for name in runtimes.keys { pump(name) }
    }

    /// The registrations in force, for routing events.
    public func registrations() -> [HandlerRegistration] { runtimes.values.map(\.registration) }

    /// Events were queued for `handler` (reason: the kind of the newest): deliver or launch.
    public func eventsQueued(for handler: String, reason: String) {
        guard runtimes[handler] != nil else { return }
        if runtimes[handler]!.process == nil { runtimes[handler]!.launchReason = reason }
        pump(handler)
    }

    /// Sends what the handler has not been sent, resuming or launching it when it may run.
    func pump(_ name: String) {
        guard let runtime = runtimes[name] else { return }
        switch runtime.state {
        case .active, .background:
            sendPending(name)
        case .suspended:
            guard runtime.registration.backgroundRefresh, oldestUnacknowledgedKind(name) != nil else { return }
            resume(name)
            sendPending(name)
        case .notRunning, .terminated:
            guard runtime.process == nil, let oldest = oldestUnacknowledgedKind(name) else { return }
            if runtimes[name]!.launchReason.isEmpty || runtimes[name]!.launchReason == "user" { runtimes[name]!.launchReason = oldest }
            guard mayLaunchInBackground(name) else { return }
            launch(name, active: false, reason: runtimes[name]!.launchReason)
        }
    }

    /// Launch rules (docs/semantics.md §1): background refresh on; after a force-quit only with the
    /// relaunch policy (every Waymark event is a location event); standard updates wake a
    /// terminated handler only with "always"; not within a crash backoff.
    func mayLaunchInBackground(_ name: String) -> Bool {
        guard let runtime = runtimes[name] else { return false }
        let registration = runtime.registration
        guard registration.backgroundRefresh else { return false }
        if runtime.forceQuit && !registration.relaunchAfterForceQuit { return false }
        if runtime.launchReason == "location" && !registration.subscription.authorization.relaunchesForStandardUpdates { return false }
        if let notBefore = runtime.notBefore, clock.now < notBefore { return false }
        return true
    }

    /// The kind of the oldest unacknowledged event that may wake the handler: any but
    /// `ranging`, which is only for a handler that runs anyway (ranging wakes no app on iOS).
    func oldestUnacknowledgedKind(_ name: String) -> String? {
        (try? store.unacknowledgedEvents(handler: name))?.first { $0.kind != Self.rangingKind }?.kind
    }

    static let rangingKind = "ranging"
    /// Ranging reports queued longer ago than this when their turn comes are dropped, not sent.
    static let rangingFreshness = 5.0

    func sendPending(_ name: String) {
        guard let connection = runtimes[name]?.connection else { return }
        let events: [QueuedHandlerEvent]
        do {
            events = try store.unacknowledgedEvents(handler: name, afterID: runtimes[name]!.lastSent)
        } catch {
            logger.error("Cannot read a handler's queue", metadata: ["handler": "\(name)", "error": "\(error)"])
            return
        }
        let now = Timestamp.now
        for event in events {
            if event.kind == Self.rangingKind && now.seconds(since: event.queuedAt) > Self.rangingFreshness {
                _ = try? store.acknowledgeEvent(handler: name, id: event.id, at: now)  // stale: dropped
                runtimes[name]!.lastSent = event.id
                continue
            }
            connection.send(HandlerReply.event(id: event.id, attempt: event.attempts + 1, reason: event.kind, record: event.record))
            try? store.markDelivered(eventID: event.id)
            runtimes[name]!.lastSent = event.id
            runtimes[name]!.counters.delivered += 1
        }
    }

    /// Records a state change with its reason, in memory and in the store's log.
    func transition(_ name: String, to state: HandlerState, reason: String) {
        guard runtimes[name] != nil else { return }
        runtimes[name]!.state = state
        runtimes[name]!.stateSince = clock.now
        let pid = runtimes[name]!.process?.pid
        logger.info("Handler \(state.rawValue)", metadata: ["handler": "\(name)", "reason": "\(reason)", "pid": "\(pid.map(String.init) ?? "-")"])
        try? store.logHandlerState(handler: name, state: state.rawValue, reason: reason, pid: pid, at: Timestamp.now)
    }
}

extension Timestamp {
    static var now: Timestamp { Timestamp(secondsSince1970: Date().timeIntervalSince1970) }
}
