import Foundation
import WaymarkCore

/// Registrations and the user's commands (docs/semantics.md §1.4, §1.5).
extension HandlerLifecycle {
    /// New handlers are added, removed ones terminated and forgotten, changed ones take effect
    /// at their next launch; then each gets what waits for it.
    mutating func register(_ registered: [Registered]) {
        var seen = Set<String>()
        for entry in registered {
            let name = entry.registration.name
            seen.insert(name)
            if handlers[name] == nil {
                handlers[name] = Handler(entry, since: now)
            } else {
                handlers[name]!.registration = entry.registration
                handlers[name]!.forceQuit = entry.forceQuit
            }
        }
        for name in handlers.keys.sorted() where !seen.contains(name) {
            stop(name, reason: "unregistered", signal: SIGKILL)
            actions.append(.forget(handler: name))
            handlers[name] = nil
        }
        for name in handlers.keys.sorted() {
            scheduleFetch(name)
            pump(name)
        }
    }

    /// `waymark handlers quit NAME`: SIGKILL and a force-quit mark. It is still relaunched for
    /// its events unless its relaunch policy is off (then only `launch` starts it).
    mutating func userQuit(_ name: String) {
        guard let handler = handlers[name] else { return }
        handlers[name]!.forceQuit = true
        if handler.running {
            stop(name, reason: "force-quit by the user", signal: SIGKILL)
        } else {
            transition(name, to: .terminated, reason: "force-quit by the user")
        }
    }

    /// `waymark handlers launch NAME`: clears the force-quit mark and the crash backoff, and
    /// starts it active (no budget); a suspended or background one becomes active, unjudged.
    mutating func userLaunch(_ name: String) {
        guard let handler = handlers[name] else { return }
        handlers[name]!.forceQuit = false
        handlers[name]!.notBefore = nil
        guard handler.running else { return launch(name, active: true, reason: "user") }
        if handler.state == .suspended { actions.append(.signal(handler: name, SIGCONT)) }
        // Open background tasks stay open (their tokens stay valid); active, they have no limit.
        handlers[name]!.backgroundStart = nil
        handlers[name]!.noBudget = false
        handlers[name]!.period = Period()
        transition(name, to: .active, reason: "launched by the user")
        send(name, .didBecomeActive)
        deliver(name)
    }

    /// An active handler moves to the background (docs/semantics.md §1.1): `didEnterBackground`,
    /// and from now on its budget and background tasks count as after a launch. Tasks it began
    /// while active stay open, their time limit counted from the move: finishing what the user
    /// started is what they are for. Without background refresh the move brings no budget: it is
    /// suspended at once, or when its open tasks end (`noBudget`), and such a move with no task
    /// open is no period to judge. A handler that is not active is left as it is.
    mutating func enterBackground(_ name: String, byItself: Bool) {
        guard let handler = handlers[name], handler.running, handler.state == .active else { return }
        handlers[name]!.backgroundStart = now
        handlers[name]!.willSuspendSent = false
        handlers[name]!.noBudget = !handler.registration.backgroundRefresh
        if handler.registration.backgroundRefresh || !handler.openTasks.isEmpty { openPeriod(name) }
        transition(name, to: .background, reason: byItself ? "moved to the background by itself" : "moved to the background by the user")
        send(name, .didEnterBackground)
        deliver(name)
    }

    /// The daemon is stopping: nothing is launched any more, and running, connected handlers
    /// that are not suspended get `willTerminate`. `terminate` follows `willTerminateLead` later.
    mutating func shutdown() {
        shuttingDown = true
        for name in handlers.keys.sorted() where handlers[name]!.running {
            if handlers[name]!.connected && handlers[name]!.state != .suspended { send(name, .willTerminate) }
        }
    }

    /// Running handlers get SIGTERM (suspended ones SIGCONT first, so they can act on it) and
    /// their connections close; unacknowledged events stay queued.
    mutating func terminate() {
        shuttingDown = true
        for name in handlers.keys.sorted() where handlers[name]!.running {
            handlers[name]!.stopping = "daemon shutdown"
            actions.append(.signal(handler: name, SIGCONT))
            actions.append(.kill(handler: name, SIGTERM, reason: "daemon shutdown"))
            if handlers[name]!.connected { actions.append(.close(handler: name)) }
            handlers[name]!.connected = false
        }
    }
}
