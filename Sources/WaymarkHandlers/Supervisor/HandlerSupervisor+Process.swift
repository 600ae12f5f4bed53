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
        if let cgroups = settings.cgroups {
            do {
                cgroupProcs = try cgroups.openForJoining(name, maximum: settings.maximumProcesses)
            } catch {
                logger.warning("Handler runs without its process limit", metadata: ["handler": "\(name)", "error": "\(error)"])
            }
        }
        defer { if cgroupProcs >= 0 { close(cgroupProcs) } }
        let process = try HandlerProcess.spawn(
            executable: registration.executable, arguments: registration.arguments, environment: environment,
            directory: registration.workingDirectory, logPath: settings.logDirectory.map { "\($0)/\(name).log" },
            memoryLimit: registration.limits.memoryBytes, cgroupProcs: cgroupProcs)
        return Launched(process: process, token: token)
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
