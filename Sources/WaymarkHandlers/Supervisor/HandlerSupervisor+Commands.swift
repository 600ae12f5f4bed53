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

    /// Every handler with its state and counters, as `waymark handlers list --json` prints it.
    public func statusJSON() -> [String] {
        commitAcknowledgements()
        let counts = (try? store.handlerEventCounts()) ?? [:]
        let now = clock.now
        return lifecycle.handlers.keys.sorted().map { name in
            let handler = lifecycle.handlers[name]!
            var w = JSONObjectWriter()
            w.add("name", name)
            w.add("state", handler.state.rawValue)
            w.addRaw("pid", processes[name].map { String($0.process.pid) } ?? "null")
            w.add("stateSeconds", now.seconds(since: handler.stateSince))
            w.add("forceQuit", handler.forceQuit)
            w.add("executable", handler.registration.executable)
            w.add("launches", handler.counters.launches)
            w.add("resumes", handler.counters.resumes)
            w.add("suspensions", handler.counters.suspensions)
            w.add("terminations", handler.counters.terminations)
            w.add("crashes", handler.counters.crashes)
            w.add("eventsQueued", counts[name]?.queued ?? 0)
            w.add("eventsUnacknowledged", counts[name]?.unacknowledged ?? 0)
            w.add("budgetSeconds", handler.limits.budget)
            w.add("maximumBackgroundSeconds", handler.limits.maximumBackgroundTime)
            w.addRaw("standing", handler.standing.json)
            return w.object
        }
    }

    /// At shutdown: running handlers get SIGTERM (suspended ones SIGCONT first, so they can
    /// act on it) and their connections close; unacknowledged events stay queued.
    public func shutdown() {
        commitAcknowledgements()
        feed(.shutdown)
        sleeper?.cancel()
    }
}
