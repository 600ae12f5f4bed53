import Foundation
import WaymarkCore

/// The rules that fall due with time (docs/semantics.md §1.2, §1.4, §1.5).
extension HandlerLifecycle {
    /// Expiration notices, `willSuspend`, the end of background time (suspension, or
    /// termination with tasks open or exits-on-suspend), SIGKILL after a SIGTERM's grace,
    /// crash backoffs that have passed, and the purge of suspended handlers beyond the limit.
    mutating func advance() {
        for name in handlers.keys.sorted() {
            guard let handler = handlers[name] else { continue }
            if handler.running, let killAt = handler.killAt, now >= killAt {
                handlers[name]!.killAt = nil
                actions.append(.kill(handler: name, SIGKILL, reason: "still running \(settings.terminationGrace) s after SIGTERM"))
            }
            if let deadline = handler.deadline {
                spendBackgroundTime(name, remaining: deadline.seconds(since: now))
            } else if !handler.running, handler.launching == nil, let notBefore = handler.notBefore, now >= notBefore {
                handlers[name]!.notBefore = nil
                pump(name)
            }
        }
        wakeForFetches()
        purgeSuspended()
    }

    private mutating func spendBackgroundTime(_ name: String, remaining: Double) {
        let handler = handlers[name]!
        if !handler.openTasks.isEmpty && remaining <= settings.expirationNotice {
            for (index, task) in handler.openTasks.enumerated() where !task.warned {
                send(name, .expiration(token: task.token, name: task.name, remaining: max(remaining, 0)))
                handlers[name]!.openTasks[index].warned = true
            }
        }
        if handler.openTasks.isEmpty && !handler.willSuspendSent && remaining <= settings.suspendNotice {
            send(name, .willSuspend)
            handlers[name]!.willSuspendSent = true
        }
        guard remaining <= 0 && handler.stopping == nil else { return }
        closePeriod(name)
        if !handler.helloSinceLaunch {
            // Launched for events and never connected: suspending it and resuming it for the
            // next event would repeat forever. It failed: ended, and counted as a crash (backoff).
            handlers[name]!.failedToConnect = true
            stop(name, reason: "never connected (no hello) in its background time", signal: SIGKILL)
        } else if !handler.openTasks.isEmpty {
            stop(name, reason: "background time over with \(handler.openTasks.count) background task(s) still open", signal: SIGKILL)
        } else if handler.registration.exitsOnSuspend {
            stop(name, reason: "budget spent (exits on suspend)", signal: SIGTERM)
        } else {
            suspend(name)
        }
    }

    /// Terminates the oldest suspended handlers beyond `maximumSuspended`, with no notice.
    mutating func purgeSuspended() {
        let suspended = handlers.filter { $0.value.state == .suspended && $0.value.running && $0.value.stopping == nil }
            .sorted { ($0.value.stateSince, $0.key) < ($1.value.stateSince, $1.key) }
        guard suspended.count > settings.maximumSuspended else { return }
        for (name, _) in suspended.prefix(suspended.count - settings.maximumSuspended) {
            stop(name, reason: "purged: more than \(settings.maximumSuspended) suspended handlers", signal: SIGKILL)
        }
    }

    /// The next instant at which a rule falls due (a `tick` then has work), nil when none
    /// will without another input: the shell sleeps until then.
    public var nextDeadline: Timestamp? {
        var instants: [Timestamp] = []
        for handler in handlers.values {
            if handler.running, let killAt = handler.killAt { instants.append(killAt) }
            if let deadline = handler.deadline {
                if handler.openTasks.contains(where: { !$0.warned }) { instants.append(deadline.adding(seconds: -settings.expirationNotice)) }
                if handler.openTasks.isEmpty && !handler.willSuspendSent { instants.append(deadline.adding(seconds: -settings.suspendNotice)) }
                if handler.stopping == nil { instants.append(deadline) }
            } else if !handler.running, handler.launching == nil, let notBefore = handler.notBefore {
                instants.append(notBefore)
            }
            if let fetch = handler.fetchMoment { instants.append(fetch) }
        }
        // What is due by now was done when `now` was handled; never report the past, so the
        // shell cannot spin.
        return instants.filter { $0 > now }.min()
    }
}
