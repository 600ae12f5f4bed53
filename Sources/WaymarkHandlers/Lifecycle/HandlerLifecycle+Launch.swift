import Foundation
import WaymarkCore

/// Launch, resume and relaunch (docs/semantics.md §1.1, §1.5).
extension HandlerLifecycle {
    /// Events were queued for it (`reason`: the newest one's kind, for the log; a launch is named
    /// after the oldest event that may wake it, `queueRead`).
    mutating func eventsQueued(_ name: String, reason: String) {
        guard handlers[name] != nil else { return }
        pump(name)
    }

    /// Sends what the handler has not been sent when it runs; otherwise asks for its queue,
    /// to resume or launch it for what waits there, when it may be.
    mutating func pump(_ name: String) {
        guard let handler = handlers[name], !shuttingDown else { return }
        switch handler.state {
        case .active, .background:
            deliver(name)
        case .suspended:
            guard handler.registration.backgroundRefresh else { return }
            actions.append(.readQueue(handler: name))
        case .notRunning, .terminated:
            guard !handler.running, handler.launching == nil, handler.registration.backgroundRefresh,
                !(handler.forceQuit && !handler.registration.relaunchAfterForceQuit), !isBackingOff(name)
            else { return }
            actions.append(.readQueue(handler: name))
        }
    }

    /// Its queue holds `wakingKind` (or nothing that wakes it): resume or launch it.
    mutating func queueRead(_ name: String, wakingKind: String?) {
        guard let handler = handlers[name], let wakingKind, !shuttingDown else { return }
        switch handler.state {
        case .active, .background:
            deliver(name)
        case .suspended:
            guard handler.registration.backgroundRefresh, handler.running, mayWake(name, for: wakingKind) else { return }
            resume(name)
            deliver(name)
        case .notRunning, .terminated:
            guard !handler.running, handler.launching == nil else { return }
            // The launch is for the oldest event that may wake it: its kind is the reason the
            // rules below judge and the handler is told.
            handlers[name]!.launchReason = wakingKind
            guard mayLaunchInBackground(name) else { return }
            launch(name, active: false, reason: handlers[name]!.launchReason)
        }
    }

    /// Launch rules (docs/semantics.md §1.5): background refresh on; after a force-quit only with the
    /// relaunch policy, and only for a kind that relaunches a force-quit handler; standard updates
    /// only with "always" (`mayWake`); not within a crash backoff.
    func mayLaunchInBackground(_ name: String) -> Bool {
        guard let handler = handlers[name] else { return false }
        let registration = handler.registration
        guard registration.backgroundRefresh else { return false }
        if handler.forceQuit && !registration.relaunchAfterForceQuit { return false }
        guard mayWake(name, for: handler.launchReason) else { return false }
        return !isBackingOff(name)
    }

    func isBackingOff(_ name: String) -> Bool { handlers[name]?.notBefore.map { now < $0 } == true }

    /// Asks for its process: in the background on a budget, or active (started by the user,
    /// no budget).
    mutating func launch(_ name: String, active: Bool, reason: String) {
        guard handlers[name] != nil else { return }
        handlers[name]!.launching = Launch(active: active, reason: reason)
        actions.append(.spawn(handler: name, reason: active ? "user" : reason))
    }

    mutating func spawned(_ name: String) {
        guard let launch = handlers[name]?.launching else { return }
        handlers[name]!.launching = nil
        handlers[name]!.running = true
        handlers[name]!.launchReason = launch.active ? "user" : launch.reason
        handlers[name]!.lastSent = 0
        handlers[name]!.unacknowledgedSent = []
        handlers[name]!.openTasks = []
        handlers[name]!.stopping = nil
        handlers[name]!.killAt = nil
        handlers[name]!.willSuspendSent = false
        handlers[name]!.noBudget = false
        handlers[name]!.helloSinceLaunch = false
        handlers[name]!.failedToConnect = false
        handlers[name]!.backgroundStart = launch.active ? nil : now
        handlers[name]!.counters.launches += 1
        if !launch.active { openPeriod(name) }
        transition(name, to: launch.active ? .active : .background, reason: launch.active ? "launched by the user" : "launched for \(launch.reason)")
    }

    /// A failed spawn is a crash: it waits out a backoff before the next launch.
    mutating func spawnFailed(_ name: String, message: String) {
        guard handlers[name]?.launching != nil else { return }
        handlers[name]!.launching = nil
        handlers[name]!.crashes += 1
        handlers[name]!.notBefore = now.adding(seconds: Self.backoff(afterCrashes: handlers[name]!.crashes))
        transition(name, to: .terminated, reason: "launch failed: \(message)")
    }

    /// SIGCONT to the group; back on a fresh budget.
    mutating func resume(_ name: String) {
        guard handlers[name]?.running == true else { return }
        actions.append(.signal(handler: name, SIGCONT))
        handlers[name]!.backgroundStart = now
        handlers[name]!.willSuspendSent = false
        handlers[name]!.noBudget = false
        handlers[name]!.counters.resumes += 1
        openPeriod(name)
        transition(name, to: .background, reason: "resumed for an event")
        send(name, .didResume)
    }

    /// Crash backoff (docs/semantics.md §1.5): 1 s, doubling, at most 60 s.
    public static func backoff(afterCrashes crashes: Int) -> Double {
        Double(min(60, 1 << min(max(crashes - 1, 0), 6)))
    }
}
