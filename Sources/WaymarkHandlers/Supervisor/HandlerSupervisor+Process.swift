import Foundation
import WaymarkCore

extension HandlerSupervisor {
    /// Starts the handler's process. Its environment is a fixed PATH, the registration's
    /// allow-list, and `WAYMARK_HANDLER_SOCKET`, `WAYMARK_HANDLER_NAME`, `WAYMARK_HANDLER_TOKEN`,
    /// `WAYMARK_LAUNCH_REASON`.
    func spawn(_ name: String, reason: String) throws -> Launched {
        guard let registration = lifecycle.handlers[name]?.registration else { throw HandlerError.unknownHandler(name) }
        let token = (0..<4).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 16) }.joined()
        var environment = ["PATH": "/usr/local/bin:/usr/bin:/bin"]
        for key in registration.environment { environment[key] = settings.environment[key] }
        environment["WAYMARK_HANDLER_SOCKET"] = socketPath
        environment["WAYMARK_HANDLER_NAME"] = name
        environment["WAYMARK_HANDLER_TOKEN"] = token
        environment["WAYMARK_LAUNCH_REASON"] = reason
        var cgroupProcs: Int32 = -1
        var freezerProcs: Int32 = -1
        var freezable = false
        if let cgroups = settings.cgroups {
            do {
                cgroupProcs = try cgroups.openForJoining(name, maximum: settings.maximumProcesses)
            } catch {
                logger.warning("Handler runs without its process limit", metadata: ["handler": "\(name)", "error": "\(error)"])
            }
            do {
                freezerProcs = try cgroups.openFreezerForJoining(name)
                // v2: its pids cgroup is the one frozen, so it must have joined that.
                freezable = cgroups.freezes && (freezerProcs >= 0 || cgroupProcs >= 0)
            } catch {
                logger.warning("Handler is suspended through its process group only", metadata: ["handler": "\(name)", "error": "\(error)"])
            }
        }
        defer {
            if cgroupProcs >= 0 { close(cgroupProcs) }
            if freezerProcs >= 0 { close(freezerProcs) }
        }
        let process = try HandlerProcess.spawn(
            executable: registration.executable, arguments: registration.arguments, environment: environment,
            directory: registration.workingDirectory, logPath: settings.logDirectory.map { "\($0)/\(name).log" },
            memoryLimit: registration.limits.memoryBytes, cgroupProcs: cgroupProcs, freezerProcs: freezerProcs)
        return Launched(process: process, token: token, freezable: freezable)
    }

    /// Reports the process's end to `exited`, through the reaper's pidfd (no thread per child).
    func watchExit(of process: HandlerProcess, handler name: String) {
        HandlerReaper.shared.watch(process) { [weak self] code, signal in
            Task { await self?.exited(name, pid: process.pid, code: code, signal: signal) }
        }
    }

    /// A process ended; an exit of a process that is no longer the handler's is ignored.
    func exited(_ name: String, pid: pid_t, code: Int32?, signal: Int32?) {
        guard processes[name]?.process.pid == pid else { return }
        if let refused = settings.cgroups?.refusedForks(of: name), refused > 0 {
            logger.warning(
                "Handler reached its process limit", metadata: ["handler": "\(name)", "limit": "\(settings.maximumProcesses)", "refused": "\(refused)"])
        }
        processes[name] = nil
        forgetLaunch(pid: pid)
        feed(.exited(handler: name, code: code, signal: signal))
    }
}

extension HandlerSupervisor {
    /// SIGSTOP or SIGCONT as the lifecycle asks: a handler in a freezable cgroup is frozen or
    /// thawed whole, children that left its session included (docs/handlers.md, "Limits"); the
    /// others' process groups get the signal. SIGCONT goes to the group as well (harmless when
    /// frozen, and what a group a failed freeze stopped needs).
    func suspendOrResume(_ name: String, _ signal: Int32) {
        guard let launched = processes[name] else { return }
        if launched.freezable, signal == SIGSTOP || signal == SIGCONT, let cgroups = settings.cgroups {
            if cgroups.freeze(name, signal == SIGSTOP) && signal == SIGSTOP { return }
            if signal == SIGSTOP { logger.warning("Cannot freeze a handler's cgroup: stopping its process group", metadata: ["handler": "\(name)"]) }
        }
        launched.process.signalGroup(signal)
    }

    /// How a handler is suspended: `cgroup` (its cgroup frozen) or `processGroup` (SIGSTOP) —
    /// for a running one as it was launched, for the others as the next launch will be.
    func suspension(of name: String) -> String {
        (processes[name]?.freezable ?? (settings.cgroups?.freezes == true)) ? "cgroup" : "processGroup"
    }
}
