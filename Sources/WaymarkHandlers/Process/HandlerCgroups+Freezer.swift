#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Suspension by freezing (docs/handlers.md, "Limits"): SIGSTOP to a handler's process group
/// misses the children that left it with `setsid`, which run on while the handler reads as
/// suspended. A v2 cgroup's `cgroup.freeze` stops every process in it, wherever its session.
/// Each handler's processes join a cgroup that has one: the handler's own `pids` cgroup when that
/// is v2, or a second cgroup of the same name in the unified hierarchy mounted beside a v1 `pids`
/// one (the hybrid layout). Where neither exists, suspension goes through the process group.
extension HandlerCgroups {
    /// The folder for handler cgroups that can be frozen, made if needed: `pidsRoot` itself when
    /// it is v2, else `waymark-INSTANCE` in the daemon's own unified cgroup (`unifiedOwn`); nil
    /// when the folder has no `cgroup.freeze` (kernels before 5.2) or cannot be made.
    static func freezerRoot(pidsRoot: String, unified: Bool, unifiedOwn: String?, instance: String) -> String? {
        let folder: String
        if unified {
            folder = pidsRoot
        } else if let unifiedOwn {
            sweepEmpty(in: unifiedOwn)
            folder = join(unifiedOwn, "waymark-\(instanceName(instance))")
            guard (try? makeFolder(folder)) != nil else { return nil }
        } else {
            return nil
        }
        guard FileManager.default.fileExists(atPath: join(folder, "cgroup.freeze")) else {
            if !unified { rmdir(folder) }
            return nil
        }
        return folder
    }

    /// Whether suspension freezes cgroups (else it signals process groups).
    public var freezes: Bool { freezerRoot != nil }

    /// The handler's cgroup that can be frozen; nil without one.
    public func freezerPath(of handler: String) -> String? {
        freezerRoot.map { Self.join($0, "handler-" + handler) }
    }

    /// The handler's freezable cgroup, thawed (a process killed while frozen leaves its cgroup
    /// frozen, and a new one joining it would be frozen at once), with its `cgroup.procs` opened
    /// for the new process to join (`HandlerProcess.spawn`); -1 when it is the `pids` cgroup
    /// itself (v2: one join does both) or there is none. The caller closes the descriptor.
    public func openFreezerForJoining(_ handler: String) throws -> Int32 {
        guard let freezerRoot, let folder = freezerPath(of: handler) else { return -1 }
        if folder != path(of: handler) {
            // Another daemon starting may have swept this folder while it was empty.
            try Self.makeFolder(freezerRoot)
            try Self.makeFolder(folder)
        }
        try Self.write("0", to: Self.join(folder, "cgroup.freeze"))
        guard folder != path(of: handler) else { return -1 }
        let procs = Self.join(folder, "cgroup.procs")
        let descriptor = open(procs, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CgroupError("open \(procs): \(String(cString: strerror(errno)))") }
        return descriptor
    }

    /// Freezes (`true`) or thaws the handler's cgroup: every process in it stops or goes on,
    /// children that left its session included. False when it could not be written.
    @discardableResult
    public func freeze(_ handler: String, _ frozen: Bool) -> Bool {
        guard let folder = freezerPath(of: handler) else { return false }
        return (try? Self.write(frozen ? "1" : "0", to: Self.join(folder, "cgroup.freeze"))) != nil
    }

    /// Thaws every handler cgroup of this daemon: a daemon that died leaves its suspended
    /// handlers frozen, and a frozen process acts on no SIGTERM.
    public func thawAll() {
        guard let freezerRoot else { return }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: freezerRoot)) ?? [] where name.hasPrefix("handler-") {
            try? Self.write("0", to: Self.join(Self.join(freezerRoot, name), "cgroup.freeze"))
        }
    }
}
