import Foundation

extension HandlerSupervisor {
    /// Runs the clock-driven rules every `interval` until cancelled.
    public func run(interval: Duration = .milliseconds(100)) async {
        while !Task.isCancelled {
            tick()
            try? await Task.sleep(for: interval)
        }
    }

    /// Budgets (expiration notices, willSuspend, suspension or termination), crash backoffs
    /// that have passed, and the purge of suspended handlers beyond the limit.
    func tick() {
        let now = clock.now
        for name in runtimes.keys.sorted() {
            guard let runtime = runtimes[name] else { continue }
            if let deadline = runtime.deadline {
                let remaining = (deadline - now).inSeconds
                if !runtime.openTasks.isEmpty && remaining <= settings.expirationNotice {
                    for (token, task) in runtime.openTasks where !task.warned {
                        runtime.connection?.send(HandlerReply.remaining("expiration", token: token, name: task.name, seconds: max(remaining, 0)))
                        runtimes[name]!.openTasks[token]!.warned = true
                    }
                }
                if runtime.openTasks.isEmpty && !runtime.willSuspendSent && remaining <= settings.suspendNotice {
                    runtime.connection?.send(HandlerReply.simple("willSuspend"))
                    runtimes[name]!.willSuspendSent = true
                }
                if remaining <= 0 && runtime.stopping == nil {
                    closePeriod(name)
                    if !runtime.openTasks.isEmpty {
                        stop(name, reason: "background time over with \(runtime.openTasks.count) background task(s) still open", signal: SIGKILL)
                    } else if runtime.registration.exitsOnSuspend {
                        stop(name, reason: "budget spent (exits on suspend)", signal: SIGTERM)
                    } else {
                        suspend(name)
                    }
                }
            } else if runtime.process == nil, runtime.notBefore.map({ now >= $0 }) == true {
                runtimes[name]!.notBefore = nil
                pump(name)
            }
        }
        purgeSuspended()
    }

    /// Terminates the oldest suspended handlers beyond `maximumSuspended`, with no notice.
    func purgeSuspended() {
        let suspended = runtimes.filter { $0.value.state == .suspended && $0.value.stopping == nil }
            .sorted { $0.value.stateSince < $1.value.stateSince }
        guard suspended.count > settings.maximumSuspended else { return }
        for (name, _) in suspended.prefix(suspended.count - settings.maximumSuspended) {
            stop(name, reason: "purged: more than \(settings.maximumSuspended) suspended handlers", signal: SIGKILL)
        }
    }
}
