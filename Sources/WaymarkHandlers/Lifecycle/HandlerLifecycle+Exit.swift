import Foundation
import WaymarkCore

/// Suspension, termination and the end of a process (docs/semantics.md §1.2, §1.4, §1.5).
extension HandlerLifecycle {
    /// SIGSTOP to the group: no code runs until it is resumed.
    mutating func suspend(_ name: String, reason: String = "budget spent") {
        guard handlers[name]?.running == true else { return }
        actions.append(.signal(handler: name, SIGSTOP))
        handlers[name]!.backgroundStart = nil
        handlers[name]!.counters.suspensions += 1
        transition(name, to: .suspended, reason: reason)
    }

    /// Ends the process with `signal`, remembering why: SIGKILL, or SIGTERM (with SIGCONT, so
    /// a stopped process can act on it) and SIGKILL `terminationGrace` later (docs/semantics.md §1.4).
    mutating func stop(_ name: String, reason: String, signal: Int32) {
        guard handlers[name]?.running == true else { return }
        handlers[name]!.stopping = reason
        actions.append(.kill(handler: name, signal, reason: reason))
        if signal != SIGKILL {
            actions.append(.signal(handler: name, SIGCONT))
            handlers[name]!.killAt = now.adding(seconds: settings.terminationGrace)
        }
        handlers[name]!.counters.terminations += 1
    }

    /// The process ended: a clean exit, our own stop, or a crash (backoff before the next launch).
    mutating func exited(_ name: String, code: Int32?, signal: Int32?) {
        guard let handler = handlers[name], handler.running else { return }
        // Exiting by itself ends a background period like running out of time does; a crash or
        // a stop of ours is judged elsewhere (backoff) or was judged already.
        if handler.state == .background && handler.stopping == nil && code == 0 { closePeriod(name) }
        if handler.connected { actions.append(.close(handler: name)) }
        handlers[name]!.period = Period()
        handlers[name]!.running = false
        handlers[name]!.connected = false
        handlers[name]!.openTasks = []
        handlers[name]!.backgroundStart = nil
        handlers[name]!.killAt = nil
        handlers[name]!.stopping = nil
        handlers[name]!.failedToConnect = false
        let how = code.map { "exit \($0)" } ?? "signal \(signal ?? 0)"
        if handler.failedToConnect {
            crashed(name, "\(handler.stopping ?? "never connected") (\(how))")
        } else if let reason = handler.stopping {
            transition(name, to: .terminated, reason: "\(reason) (\(how))")
        } else if code == 0 {
            transition(name, to: .notRunning, reason: "exited (\(how))")
        } else {
            crashed(name, "crashed (\(how))")
        }
        pump(name)
    }

    /// A crash, or a launch that failed: the next launch waits out a growing backoff.
    private mutating func crashed(_ name: String, _ what: String) {
        handlers[name]!.crashes += 1
        handlers[name]!.counters.crashes += 1
        let backoff = Self.backoff(afterCrashes: handlers[name]!.crashes)
        handlers[name]!.notBefore = now.adding(seconds: backoff)
        transition(name, to: .terminated, reason: "\(what); next launch in \(backoff) s at the earliest")
    }
}
