import Foundation
import WaymarkCore

extension HandlerSupervisor {
    /// `waymark handlers quit NAME`: SIGKILL and a force-quit mark. A location handler is still
    /// relaunched for its events unless its relaunch policy is off (then only `launch` starts it).
    public func forceQuit(_ name: String) throws {
        guard runtimes[name] != nil else { throw HandlerError.unknownHandler(name) }
        try store.setForceQuit(true, handler: name)
        runtimes[name]!.forceQuit = true
        if runtimes[name]!.process != nil {
            stop(name, reason: "force-quit by the user", signal: SIGKILL)
        } else {
            transition(name, to: .terminated, reason: "force-quit by the user")
        }
    }

    /// `waymark handlers launch NAME`: clears the force-quit mark and starts it active (no
    /// budget); a suspended or background one becomes active.
    public func launchByUser(_ name: String) throws {
        guard runtimes[name] != nil else { throw HandlerError.unknownHandler(name) }
        try store.setForceQuit(false, handler: name)
        runtimes[name]!.forceQuit = false
        runtimes[name]!.notBefore = nil
        if let process = runtimes[name]!.process {
            if runtimes[name]!.state == .suspended { process.signalGroup(SIGCONT) }
            runtimes[name]!.backgroundStart = nil
            runtimes[name]!.openTasks = [:]
            runtimes[name]!.period = HandlerRuntime.Period()
            transition(name, to: .active, reason: "launched by the user")
            runtimes[name]!.connection?.send(HandlerReply.simple("didBecomeActive"))
            sendPending(name)
        } else {
            launch(name, active: true, reason: "user")
        }
    }

    /// Every handler with its state and counters, as `waymark handlers list --json` prints it.
    public func statusJSON() -> [String] {
        let counts = (try? store.handlerEventCounts()) ?? [:]
        return runtimes.keys.sorted().map { name in
            let runtime = runtimes[name]!
            var w = JSONObjectWriter()
            w.add("name", name)
            w.add("state", runtime.state.rawValue)
            w.addRaw("pid", runtime.process.map { String($0.pid) } ?? "null")
            w.add("stateSeconds", (clock.now - runtime.stateSince).inSeconds)
            w.add("forceQuit", runtime.forceQuit)
            w.add("executable", runtime.registration.executable)
            w.add("launches", runtime.counters.launches)
            w.add("resumes", runtime.counters.resumes)
            w.add("suspensions", runtime.counters.suspensions)
            w.add("terminations", runtime.counters.terminations)
            w.add("crashes", runtime.counters.crashes)
            w.add("eventsQueued", counts[name]?.queued ?? 0)
            w.add("eventsUnacknowledged", counts[name]?.unacknowledged ?? 0)
            let limits = runtime.standing.limits(from: runtime.registration.limits)
            w.add("budgetSeconds", limits.budget)
            w.add("maximumBackgroundSeconds", limits.maximumBackgroundTime)
            w.addRaw("standing", runtime.standing.json)
            return w.object
        }
    }

    /// At shutdown: running handlers get SIGTERM (suspended ones SIGCONT first, so they can
    /// act on it) and their connections close; unacknowledged events stay queued.
    public func shutdown() {
        for (name, runtime) in runtimes {
            guard let process = runtime.process else { continue }
            runtimes[name]!.stopping = "daemon shutdown"
            process.signalGroup(SIGCONT)
            process.signalGroup(SIGTERM)
            runtime.connection?.close()
        }
    }
}
