import Foundation
import Logging
import Synchronization
import WaymarkCore
import WaymarkStore

/// Launches, feeds, suspends, resumes and relaunches handlers (docs/semantics.md §1): the I/O shell
/// around `HandlerLifecycle`. It feeds the lifecycle what happens (with the time on the daemon's
/// clock), performs the actions it returns (processes, signals, the socket, the store), and
/// sleeps until its next deadline. Events reach it already written to the store; it delivers
/// each handler's unacknowledged events in id order whenever the handler can run, and never
/// lets one handler hold up another.
///
/// It runs on a thread of its own (`executor`): its store calls (reading a queue, counting a
/// delivery, committing acknowledgements) are synchronous and short, and block that thread,
/// never the cooperative pool that serves the API and the pipeline.
public actor HandlerSupervisor {
    /// The one thread every supervisor of the process runs on (a daemon has one supervisor).
    static let executor = DedicatedThreadExecutor(name: "waymark-handler")

    public nonisolated var unownedExecutor: UnownedSerialExecutor { Self.executor.asUnownedSerialExecutor() }

    public struct Settings: Sendable {
        /// Notices, purge limit and termination grace (docs/semantics.md §1.2, §1.4).
        public var lifecycle = HandlerLifecycle.Settings()
        /// Where handlers' stdout and stderr go (`NAME.log`); nil: /dev/null.
        public var logDirectory: String?
        /// A log past this size is rotated (`HandlerLog`), checked at each launch and every
        /// `logCheckInterval` seconds while a handler runs unsuspended.
        public var logMaximumBytes = HandlerLog.defaultMaximumBytes
        public var logCheckInterval = 5.0
        /// Passed on to handlers from the daemon's environment when a registration allows them.
        public var environment: [String: String] = ProcessInfo.processInfo.environment
        /// Where each handler's processes are counted and limited; nil: no limit (none available).
        public var cgroups: HandlerCgroups?
        /// The PSI file read for memory pressure while any handler process exists: every
        /// `memoryPressureInterval` seconds, every `memoryPressureUrgentInterval` once it is above
        /// normal; nil: not watched.
        public var memoryPressureFile: String? = "/proc/pressure/memory"
        public var memoryPressureInterval = 10.0
        public var memoryPressureUrgentInterval = 2.0
        /// Processes and threads one handler may have at once, itself included (`pids.max`).
        public var maximumProcesses = Self.defaultMaximumProcesses
        public static let defaultMaximumProcesses = 64

        public init() {}
    }

    /// Answers handlers' queries (region state, last location) as JSON values, for the device
    /// named (`local` when the handler names none); a `HandlerQueryError` (an unknown device)
    /// is sent in place of the answer.
    public struct Queries: Sendable {
        /// `(region, device)`: the region's state for that device, or `null` when not monitored.
        public var regionState: @Sendable (_ region: String, _ device: String) async throws -> String
        /// `(device)`: the device's most recent fix, or `null` when it has none.
        public var lastLocation: @Sendable (_ device: String) async throws -> String

        public init(
            regionState: @escaping @Sendable (_ region: String, _ device: String) async throws -> String,
            lastLocation: @escaping @Sendable (_ device: String) async throws -> String
        ) {
            self.regionState = regionState
            self.lastLocation = lastLocation
        }
    }

    /// Events read from a handler's queue, to be sent with the rest of the round.
    struct StagedDelivery {
        var handler: String
        var connection: HandlerConnection
        var after: Int64
        var events: [QueuedHandlerEvent]
        var through: Int64
        var more: Bool
    }

    /// News of queued events not yet taken by the supervisor (`eventsQueued`).
    struct Inbox {
        var queued: [(handler: String, reason: String)] = []
        var scheduled = false
    }

    /// A process of ours and the secret it was launched with.
    struct Launched {
        var process: HandlerProcess
        var token: String
        /// Its processes joined a cgroup that can be frozen: suspension freezes it
        /// (`HandlerCgroups+Freezer`) rather than stopping the process group.
        var freezable = false
    }

    let store: WaymarkStore
    let socketPath: String
    let settings: Settings
    let queries: Queries
    let logger: Logger
    let clock: any WallClock
    var lifecycle: HandlerLifecycle
    var processes: [String: Launched] = [:]
    /// The processes running when `shutdown` began: their groups get SIGKILL after the grace.
    var stoppingGroups: [HandlerProcess] = []
    /// When memory pressure is next read.
    var nextPressureCheck: Timestamp?
    var pressureUnreadable = false
    /// Each handler's pushes left (`push`).
    var pushAllowances: [String: PushAllowance] = [:]
    var connections: [String: HandlerConnection] = [:]
    /// The sleep of `run` until the lifecycle's next deadline, and that deadline.
    var sleeper: Task<Void, Never>?
    var sleepingUntil: Timestamp?
    /// Acknowledgements not yet committed (`acknowledge`), and whether a commit is on its way.
    var pendingAcknowledgements: [HandlerAcknowledgement] = []
    var acknowledgementCommitScheduled = false
    /// Events read for delivery and not yet sent, by handler (`stageDelivery`), and how deep
    /// in nested `feed` calls the supervisor is.
    var stagedDeliveries: [StagedDelivery] = []
    var feeding = 0
    nonisolated let inbox = Mutex(Inbox())

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

    /// Events committed together were queued for these handlers (each with the kind of its
    /// newest event). Callable from any thread, never blocks: the news waits in an inbox, and
    /// one job on the supervisor takes everything that arrived meanwhile (`takeInbox`), so
    /// however many groups the store commits while the supervisor is busy, it makes one
    /// delivery round for all of them.
    public nonisolated func eventsQueued(_ queued: [(handler: String, reason: String)]) {
        let first = inbox.withLock { inbox in
            inbox.queued.append(contentsOf: queued)
            defer { inbox.scheduled = true }
            return !inbox.scheduled
        }
        if first { Task { await self.takeInbox() } }
    }

    func takeInbox() {
        let queued = inbox.withLock { inbox in
            defer { inbox = Inbox() }
            return inbox.queued
        }
        // The newest reason per handler, in order of first appearance.
        var reasons: [String: String] = [:]
        var order: [String] = []
        for (handler, reason) in queued {
            if reasons.updateValue(reason, forKey: handler) == nil { order.append(handler) }
        }
        feed(order.map { .eventsQueued(handler: $0, reason: reasons[$0]!) })
    }

    func feed(_ input: HandlerLifecycle.Input) { feed([input]) }

    /// Hands `inputs` to the lifecycle at the clock's time, performs what follows, and wakes
    /// `run` when a deadline came forward. Deliveries asked for on the way go out together
    /// when the outermost feed is done (`sendStagedDeliveries`).
    func feed(_ inputs: [HandlerLifecycle.Input]) {
        feeding += 1
        for action in lifecycle.handle(inputs, at: clock.now) { perform(action) }
        feeding -= 1
        if feeding == 0 { sendStagedDeliveries() }
        if let sleepingUntil, let next = nextWake, next < sleepingUntil { sleeper?.cancel() }
    }

    /// The stored periods a handler starts with when the daemon (re)loads it.
    func storedStanding(_ name: String) -> HandlerStanding {
        HandlerStanding(stored: (try? store.handlerSessions(handler: name, limit: HandlerStanding.window)) ?? [])
    }
}
