import Foundation
import WaymarkCore

extension HandlerSupervisor {
    /// `waymark handlers quit NAME`: SIGKILL and a force-quit mark. A location handler is still
    /// relaunched for its events unless its relaunch policy is off (then only `launch` starts it).
    public func forceQuit(_ name: String) throws {
        guard lifecycle.handlers[name] != nil else { throw HandlerError.unknownHandler(name) }
        try store.setForceQuit(true, handler: name)
        feed(.userQuit(handler: name))
    }

    /// `waymark handlers launch NAME`: clears the force-quit mark and starts it active (no
    /// budget); a suspended or background one becomes active.
    public func launchByUser(_ name: String) throws {
        guard lifecycle.handlers[name] != nil else { throw HandlerError.unknownHandler(name) }
        try store.setForceQuit(false, handler: name)
        feed(.userLaunch(handler: name))
    }

    /// `waymark handlers background NAME`: an active handler moves to the background
    /// (`didEnterBackground`, then its budget applies); any other is left as it is.
    public func moveToBackground(_ name: String) throws {
        guard lifecycle.handlers[name] != nil else { throw HandlerError.unknownHandler(name) }
        feed(.enterBackground(handler: name, byItself: false))
    }

    /// Every handler with its state and counters, by name (`GET /v1/handlers`).
    public func status() -> [HandlerStatus] {
        commitAcknowledgements()
        let counts = (try? store.handlerEventCounts()) ?? [:]
        let now = clock.now
        return lifecycle.handlers.keys.sorted().map { name in
            let handler = lifecycle.handlers[name]!
            let counters = handler.counters
            return HandlerStatus(
                name: name, state: handler.state.rawValue, pid: processes[name]?.process.pid,
                stateSeconds: now.seconds(since: handler.stateSince), forceQuit: handler.forceQuit,
                executable: handler.registration.executable,
                counters: .init(
                    launches: counters.launches, resumes: counters.resumes, suspensions: counters.suspensions,
                    terminations: counters.terminations, crashes: counters.crashes),
                eventsQueued: counts[name]?.queued ?? 0, eventsUnacknowledged: counts[name]?.unacknowledged ?? 0,
                budgetSeconds: handler.limits.budget, maximumBackgroundSeconds: handler.limits.maximumBackgroundTime,
                standing: .init(handler.standing), suspension: suspension(of: name))
        }
    }

    /// At shutdown: running handlers get `willTerminate`, half a second later SIGTERM (suspended
    /// ones SIGCONT first, so they can act on it) and their connections close; unacknowledged
    /// events stay queued.
    public func shutdown() async {
        commitAcknowledgements()
        let groups = processes.values.map(\.process)
        let running = !processes.isEmpty
        feed(.shutdown)
        sleeper?.cancel()
        // willTerminate has a moment to be read before the signal that follows it.
        if running { try? await Task.sleep(for: .milliseconds(Int(Self.willTerminateLead * 1000))) }
        feed(.terminate)
        stoppingGroups = groups
    }

    /// Seconds between `willTerminate` and SIGTERM at shutdown.
    static let willTerminateLead = 0.5

    /// After `shutdown`: waits up to the termination grace for the handlers' processes to end,
    /// then sends SIGKILL to the process group of every handler launched — the ones that ignored
    /// SIGTERM, and whatever children a handler that did exit left behind — so nothing a handler
    /// started outlives the daemon. A group already empty answers ESRCH: nothing happens.
    public func finishShutdown() async {
        let deadline = ContinuousClock.now + .milliseconds(Int(settings.lifecycle.terminationGrace * 1000))
        while !processes.isEmpty, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        for (name, launched) in processes {
            logger.warning("Handler still running after SIGTERM at shutdown; killing it", metadata: ["handler": "\(name)", "pid": "\(launched.process.pid)"])
        }
        for process in stoppingGroups { process.killGroup() }
        stoppingGroups = []
        // What left the handlers' sessions (setsid) is still in their cgroups; they go once the
        // killed are reaped.
        if let cgroups = settings.cgroups {
            for handler in cgroups.handlers() { cgroups.killAll(handler) }
            let reaped = ContinuousClock.now + .seconds(1)
            while cgroups.handlers().contains(where: { !cgroups.processes(of: $0).isEmpty }), ContinuousClock.now < reaped {
                try? await Task.sleep(for: .milliseconds(10))
            }
            cgroups.removeEmpty()
        }
    }
}
