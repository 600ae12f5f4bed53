import Foundation
import WaymarkCore

extension HandlerSupervisor {
    /// Starts the handler's process: in the background on a budget, or active (started by the
    /// user, no budget). Its environment is a fixed PATH, the registration's allow-list, and
    /// `WAYMARK_HANDLER_SOCKET`, `WAYMARK_HANDLER_NAME`, `WAYMARK_HANDLER_TOKEN`,
    /// `WAYMARK_LAUNCH_REASON`.
    func launch(_ name: String, active: Bool, reason: String) {
        guard let registration = runtimes[name]?.registration else { return }
        let token = (0..<4).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 16) }.joined()
        var environment = ["PATH": "/usr/local/bin:/usr/bin:/bin"]
        for key in registration.environment { environment[key] = settings.environment[key] }
        environment["WAYMARK_HANDLER_SOCKET"] = socketPath
        environment["WAYMARK_HANDLER_NAME"] = name
        environment["WAYMARK_HANDLER_TOKEN"] = token
        environment["WAYMARK_LAUNCH_REASON"] = active ? "user" : reason
        let process: HandlerProcess
        do {
            process = try HandlerProcess.spawn(
                executable: registration.executable, arguments: registration.arguments, environment: environment,
                directory: registration.workingDirectory, logPath: settings.logDirectory.map { "\($0)/\(name).log" },
                memoryLimit: registration.limits.memoryBytes)
        } catch {
            runtimes[name]!.crashes += 1
            runtimes[name]!.notBefore = clock.now + HandlerRuntime.backoff(afterCrashes: runtimes[name]!.crashes)
            transition(name, to: .terminated, reason: "launch failed: \(error)")
            return
        }
        runtimes[name]!.process = process
        runtimes[name]!.launchToken = token
        runtimes[name]!.launchReason = active ? "user" : reason
        runtimes[name]!.lastSent = 0
        runtimes[name]!.openTasks = [:]
        runtimes[name]!.stopping = nil
        runtimes[name]!.willSuspendSent = false
        runtimes[name]!.backgroundStart = active ? nil : clock.now
        runtimes[name]!.counters.launches += 1
        if !active { openPeriod(name) }
        transition(name, to: active ? .active : .background, reason: active ? "launched by the user" : "launched for \(reason)")
        let thread = Thread { [weak self] in
            let status = process.waitForExit()
            Task { await self?.exited(name, pid: process.pid, code: status.code, signal: status.signal) }
        }
        thread.name = "waymark-handler-wait"
        thread.start()
    }

    /// SIGCONT to the group; back on a fresh budget.
    func resume(_ name: String) {
        guard let process = runtimes[name]?.process else { return }
        process.signalGroup(SIGCONT)
        runtimes[name]!.backgroundStart = clock.now
        runtimes[name]!.willSuspendSent = false
        runtimes[name]!.counters.resumes += 1
        openPeriod(name)
        transition(name, to: .background, reason: "resumed for an event")
        runtimes[name]!.connection?.send(HandlerReply.simple("didResume"))
    }

    /// SIGSTOP to the group: no code runs until it is resumed.
    func suspend(_ name: String, reason: String = "budget spent") {
        guard let process = runtimes[name]?.process else { return }
        process.signalGroup(SIGSTOP)
        runtimes[name]!.backgroundStart = nil
        runtimes[name]!.counters.suspensions += 1
        transition(name, to: .suspended, reason: reason)
    }

    /// Ends the process with `signal` (SIGKILL, or SIGTERM for a clean exit), remembering why.
    func stop(_ name: String, reason: String, signal: Int32) {
        guard let process = runtimes[name]?.process else { return }
        runtimes[name]!.stopping = reason
        process.signalGroup(signal)
        if signal != SIGKILL { process.signalGroup(SIGCONT) }
        runtimes[name]!.counters.terminations += 1
        logger.info("Stopping handler", metadata: ["handler": "\(name)", "reason": "\(reason)", "signal": "\(signal)"])
        if signal != SIGKILL {
            let grace = settings.terminationGrace
            Task { [weak self] in
                try? await Task.sleep(for: .seconds(grace))
                await self?.killIfStill(name, pid: process.pid)
            }
        }
    }

    func killIfStill(_ name: String, pid: pid_t) {
        guard let process = runtimes[name]?.process, process.pid == pid else { return }
        process.signalGroup(SIGKILL)
    }

    /// The process ended: a clean exit, our own stop, or a crash (backoff before the next launch).
    func exited(_ name: String, pid: pid_t, code: Int32?, signal: Int32?) {
        guard let runtime = runtimes[name], runtime.process?.pid == pid else { return }
        // Exiting by itself ends a background period like running out of time does; a crash or
        // a stop of ours is judged elsewhere (backoff) or was judged already.
        if runtime.state == .background && runtime.stopping == nil && code == 0 { closePeriod(name) }
        runtimes[name]!.period = HandlerRuntime.Period()
        runtimes[name]!.process = nil
        runtimes[name]!.connection?.close()
        runtimes[name]!.connection = nil
        runtimes[name]!.launchToken = nil
        runtimes[name]!.openTasks = [:]
        runtimes[name]!.backgroundStart = nil
        let how = code.map { "exit \($0)" } ?? "signal \(signal ?? 0)"
        if let reason = runtime.stopping {
            transition(name, to: .terminated, reason: "\(reason) (\(how))")
        } else if code == 0 {
            transition(name, to: .notRunning, reason: "exited (\(how))")
        } else {
            runtimes[name]!.crashes += 1
            runtimes[name]!.counters.crashes += 1
            let backoff = HandlerRuntime.backoff(afterCrashes: runtimes[name]!.crashes)
            runtimes[name]!.notBefore = clock.now + backoff
            transition(name, to: .terminated, reason: "crashed (\(how)); next launch in \(backoff.inSeconds) s at the earliest")
        }
        runtimes[name]!.stopping = nil
        pump(name)
    }
}
