import Foundation
import WaymarkCore
import WaymarkStore

/// Handler processes across the daemon's own restarts (docs/handlers.md, "no orphans"): each
/// launch is recorded with the process's identity and forgotten when it ends; a daemon that
/// starts after one that died without its shutdown ends what that one left before launching
/// anything, so a suspended handler does not stay stopped forever and none runs twice.
extension HandlerSupervisor {
    func recordLaunch(of name: String, _ process: HandlerProcess) {
        guard let identity = ProcessIdentity.of(process.pid) else { return }
        do {
            try store.recordHandlerProcess(
                StoredHandlerProcess(handler: name, pid: identity.pid, startTicks: identity.startTicks, bootID: identity.bootID, launched: clock.now))
        } catch {
            logger.error("Cannot record a handler's process", metadata: ["handler": "\(name)", "error": "\(error)"])
        }
    }

    func forgetLaunch(pid: Int32) {
        guard let boot = ProcessIdentity.bootID else { return }
        do {
            try store.forgetHandlerProcess(pid: pid, bootID: boot)
        } catch {
            logger.error("Cannot forget a handler's process", metadata: ["pid": "\(pid)", "error": "\(error)"])
        }
    }

    /// Ends the recorded processes that still run (same PID, start time and boot), oldest
    /// first: SIGCONT and SIGTERM to the group, SIGKILL after the termination grace; forgets
    /// every record. Their unacknowledged events stay queued for the next launch. Call it once,
    /// before the first launch. How many it ended.
    @discardableResult
    public func endOrphans() async -> Int {
        let recorded: [StoredHandlerProcess]
        do {
            recorded = try await store.offPool { try $0.handlerProcesses() }
        } catch {
            logger.error("Cannot read the handler processes left by an earlier run", metadata: ["error": "\(error)"])
            return 0
        }
        var orphans: [StoredHandlerProcess] = []
        // Suspended orphans are frozen where cgroups freeze: thawed, they can act on SIGTERM.
        settings.cgroups?.thawAll()
        for process in recorded {
            let current = ProcessIdentity.of(process.pid)
            if current?.startTicks == process.startTicks && current?.bootID == process.bootID && process.pid != getpid() {
                orphans.append(process)
                logger.warning(
                    "Ending a handler left running by a daemon that did not shut down",
                    metadata: ["handler": "\(process.handler)", "pid": "\(process.pid)", "state": "\(HandlerProcess.state(of: process.pid).map(String.init) ?? "-")"])
                _ = kill(-process.pid, SIGCONT)
                _ = kill(-process.pid, SIGTERM)
            }
        }
        let deadline = ContinuousClock.now + .milliseconds(Int(settings.lifecycle.terminationGrace * 1000))
        while orphans.contains(where: { Self.stillRuns($0) }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        for orphan in orphans { _ = kill(-orphan.pid, SIGKILL) }
        // Anything the earlier daemon's handlers started that left their sessions.
        if let cgroups = settings.cgroups {
            for handler in cgroups.handlers() { cgroups.killAll(handler) }
        }
        for process in recorded {
            do { try await store.offPool { try $0.forgetHandlerProcess(pid: process.pid, bootID: process.bootID) } } catch {
                logger.error("Cannot forget a handler's process", metadata: ["pid": "\(process.pid)", "error": "\(error)"])
            }
        }
        return orphans.count
    }

    /// The orphan is still the same process and not yet a zombie.
    private static func stillRuns(_ process: StoredHandlerProcess) -> Bool {
        guard let current = ProcessIdentity.of(process.pid), current.startTicks == process.startTicks else { return false }
        return HandlerProcess.state(of: process.pid) != "Z"
    }
}
