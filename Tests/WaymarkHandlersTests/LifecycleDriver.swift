import WaymarkCore
import WaymarkHandlers

/// Drives a `HandlerLifecycle` the way `HandlerSupervisor` does, with plain values and times in
/// milliseconds: spawns succeed (or fail, for the names in `failing`), queue reads answer from
/// `queue`, and time moves only through `at` and `run(until:)`.
struct LifecycleDriver {
    typealias Action = HandlerLifecycle.Action

    /// An action and the millisecond it was taken at.
    struct Timed: Equatable {
        var ms: Int
        var action: Action
    }

    static let start = Timestamp(nanosecondsSince1970: 1_780_000_000_000_000_000)
    static func time(_ ms: Int) -> Timestamp { Timestamp(nanosecondsSince1970: start.nanosecondsSince1970 + Int64(ms) * 1_000_000) }

    var lifecycle: HandlerLifecycle
    /// The kind of the oldest event that may wake each handler (nil: nothing queued).
    var queue: [String: String] = [:]
    /// Each handler's queued kinds, oldest first: when set, a queue read answers as the
    /// supervisor does, with the oldest the lifecycle says may wake it (`mayWake`).
    var queued: [String: [String]] = [:]
    var failing: Set<String> = []
    private(set) var ms = 0

    init(_ registrations: [HandlerRegistration], settings: HandlerLifecycle.Settings = .init(), standing: [String: HandlerStanding] = [:]) {
        lifecycle = HandlerLifecycle(settings: settings, now: Self.start)
        at(0, .registered(registrations.map { .init($0, standing: standing[$0.name] ?? HandlerStanding()) }))
    }

    /// Handles `input` at `ms`; returns every action, those of the answers included.
    @discardableResult
    mutating func at(_ ms: Int, _ input: HandlerLifecycle.Input) -> [Action] {
        self.ms = ms
        return handle(input)
    }

    /// Ticks at each of the lifecycle's deadlines up to `ms`, as the shell's sleep does.
    @discardableResult
    mutating func run(until ms: Int) -> [Timed] {
        var timed: [Timed] = []
        while let next = lifecycle.nextDeadline, next <= Self.time(ms) {
            self.ms = Int((next.nanosecondsSince1970 - Self.start.nanosecondsSince1970) / 1_000_000)
            timed += handle(.tick).map { Timed(ms: self.ms, action: $0) }
        }
        self.ms = ms
        return timed
    }

    func handler(_ name: String) -> HandlerLifecycle.Handler { lifecycle.handlers[name]! }

    private mutating func handle(_ input: HandlerLifecycle.Input) -> [Action] {
        var all: [Action] = []
        for action in lifecycle.handle(input, at: Self.time(ms)) {
            all.append(action)
            switch action {
            case .spawn(let name, _):
                all += handle(failing.contains(name) ? .spawnFailed(handler: name, message: "no such file") : .spawned(handler: name))
            case .readQueue(let name):
                let waking = queued[name].map { kinds in kinds.first { lifecycle.mayWake(name, for: $0) } } ?? queue[name]
                all += handle(.queueRead(handler: name, wakingKind: waking))
            default:
                break
            }
        }
        return all
    }

    /// A handler of the region events with `limits`, started as `/bin/true`.
    static func registration(
        _ name: String, budget: Double = 10, maximumBackgroundTime: Double = 30, relaunch: Bool = true,
        backgroundRefresh: Bool = true, exitsOnSuspend: Bool = false, authorization: String = "always"
    ) -> HandlerRegistration {
        HandlerRegistration(
            name: name, executable: "/bin/true", subscription: HandlerSubscription(allRegions: true, authorizationLevel: authorization),
            relaunchAfterForceQuit: relaunch, backgroundRefresh: backgroundRefresh, exitsOnSuspend: exitsOnSuspend,
            limits: HandlerLimits(budget: budget, maximumBackgroundTime: maximumBackgroundTime))
    }

    /// Queues a region event for `name` at `ms` and connects it, as a launched handler does.
    mutating func launchForRegion(_ name: String, at ms: Int) {
        queue[name] = "region"
        at(ms, .eventsQueued(handler: name, reason: "region"))
        at(ms, .connected(handler: name))
    }
}
