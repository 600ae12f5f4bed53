#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Logging

/// A process limit per handler through the kernel's `pids` cgroup controller (docs/handlers.md,
/// "Limits"): each handler's processes join a cgroup of their own whose `pids.max` bounds how
/// many it may have, so a handler that forks without end gets EAGAIN at the limit instead of
/// taking the machine's process table; and everything in that cgroup can be found and killed,
/// including children that left the handler's session with `setsid`.
///
/// RLIMIT_NPROC cannot do this: it counts every process of the user, the daemon's included.
///
/// Where: the daemon's own cgroup in the hierarchy that has `pids` — the v1 `pids` mount, or the
/// unified (v2) one when `pids` is delegated to it (systemd's `Delegate=pids`, which the shipped
/// unit sets). Under v2 the daemon first moves itself into a leaf `waymark-daemon`, as the
/// no-internal-processes rule requires. One folder per daemon instance (`waymark-INSTANCE`, from
/// the database path), one cgroup per handler in it. Without a writable place (a daemon run from a
/// login shell under v2, a container without cgroup access) there is no limit, and the daemon
/// says so once at start.
public struct HandlerCgroups: Sendable, Equatable {
    /// The folder holding one cgroup per handler.
    public let root: String
    /// A v2 (unified) hierarchy: `root` must enable `pids` for its children.
    public let unified: Bool
    /// The folder of the handlers' cgroups that have `cgroup.freeze` (v2), where suspension
    /// freezes a handler's whole cgroup (`HandlerCgroups+Freezer`): `root` itself when it is v2,
    /// a folder in the unified hierarchy mounted beside a v1 `pids` one, nil where there is none.
    public let freezerRoot: String?

    public init(root: String, unified: Bool = false, freezerRoot: String? = nil) {
        self.root = root
        self.unified = unified
        self.freezerRoot = freezerRoot
    }

    /// The daemon's own cgroup folder for the `pids` controller, from /proc/self/mountinfo and
    /// /proc/self/cgroup; `unified` when it is a v2 hierarchy. Nil when no mounted hierarchy
    /// has `pids`. Pure, for tests.
    static func ownPidsCgroup(mountinfo: String, cgroup: String) -> (path: String, unified: Bool)? {
        let own = ownFolders(mountinfo: mountinfo, cgroup: cgroup)
        if let pids = own.v1Pids { return (pids, false) }
        if let unified = own.unified { return (unified, true) }
        return nil
    }

    /// The daemon's own cgroup folders in the v1 `pids` hierarchy and in the unified (v2) one,
    /// each nil where it is not mounted. Pure, for tests.
    static func ownFolders(mountinfo: String, cgroup: String) -> (v1Pids: String?, unified: String?) {
        var v1Mount: String?
        var v2Mount: String?
        for line in mountinfo.split(separator: "\n") {
            // ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL…] - FSTYPE SOURCE SUPEROPTIONS
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2 else { continue }
            let fields = halves[0].split(separator: " ")
            let tail = halves[1].split(separator: " ")
            guard fields.count >= 5, tail.count >= 3 else { continue }
            let mountPoint = unescapeMountField(String(fields[4]))
            if tail[0] == "cgroup2" {
                v2Mount = mountPoint
            } else if tail[0] == "cgroup", tail[2].split(separator: ",").contains("pids") {
                v1Mount = mountPoint
            }
        }
        var v1Path: String?
        var v2Path: String?
        for line in cgroup.split(separator: "\n") {
            // ID:CONTROLLERS:PATH
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            if parts[0] == "0", parts[1].isEmpty { v2Path = String(parts[2]) }
            if parts[1].split(separator: ",").contains("pids") { v1Path = String(parts[2]) }
        }
        return (v1Mount.flatMap { mount in v1Path.map { join(mount, $0) } }, v2Mount.flatMap { mount in v2Path.map { join(mount, $0) } })
    }

    /// Finds or makes this daemon's folder of handler cgroups; nil (logged) when there is no
    /// writable `pids` hierarchy. `instance` names the daemon (its database path).
    public static func prepare(instance: String, logger: Logger) -> HandlerCgroups? {
        guard let mountinfo = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8),
            let cgroup = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
            let own = ownPidsCgroup(mountinfo: mountinfo, cgroup: cgroup)
        else {
            logger.notice("No pids cgroup hierarchy: handlers have no process limit")
            return nil
        }
        let root = join(own.path, "waymark-\(instanceName(instance))")
        sweepEmpty(in: own.path)
        do {
            if own.unified { try delegatePids(in: own.path, to: root) } else { try makeFolder(root) }
            logger.info("Handlers' process limits through cgroups", metadata: ["cgroup": "\(root)"])
            let unifiedOwn = own.unified ? nil : ownFolders(mountinfo: mountinfo, cgroup: cgroup).unified
            let freezer = freezerRoot(pidsRoot: root, unified: own.unified, unifiedOwn: unifiedOwn, instance: instance)
            if let freezer {
                logger.info("Handlers are suspended by freezing their cgroups", metadata: ["cgroup": "\(freezer)"])
            } else {
                logger.notice("No cgroup.freeze: handlers are suspended through their process groups (children that left them run on)")
            }
            return HandlerCgroups(root: root, unified: own.unified, freezerRoot: freezer)
        } catch {
            logger.notice(
                "Cannot make cgroups for handlers: they have no process limit",
                metadata: ["cgroup": "\(root)", "error": "\(error)"])
            return nil
        }
    }

    /// Under v2: the daemon into a leaf of its own, `pids` enabled for its cgroup's children and
    /// for `root`'s.
    private static func delegatePids(in own: String, to root: String) throws {
        guard try read(join(own, "cgroup.controllers")).split(separator: " ").contains("pids") else {
            throw CgroupError("the pids controller is not delegated to \(own)")
        }
        if !(try read(join(own, "cgroup.subtree_control")).split(separator: " ").contains("pids")) {
            let leaf = join(own, "waymark-daemon")
            try makeFolder(leaf)
            try write("\(getpid())", to: join(leaf, "cgroup.procs"))
            try write("+pids", to: join(own, "cgroup.subtree_control"))
        }
        try makeFolder(root)
        try write("+pids", to: join(root, "cgroup.subtree_control"))
    }

    /// The handler's cgroup folder (`handler-NAME`: a name such as `..` stays a plain name).
    public func path(of handler: String) -> String { Self.join(root, "handler-" + handler) }

    /// Removes the empty cgroups that daemons killed without their shutdown left beside ours
    /// (`waymark-*` folders whose handler cgroups hold no process; the kernel refuses to remove
    /// any that does). A live daemon's folder that happens to be empty is made again at its next
    /// launch (`openForJoining`).
    static func sweepEmpty(in folder: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix("waymark-") {
            let root = join(folder, name)
            for handler in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where handler.hasPrefix("handler-") {
                rmdir(join(root, handler))
            }
            rmdir(root)
        }
    }

    /// The handler's cgroup (made on first use) with at most `maximum` processes and threads,
    /// and its `cgroup.procs` opened for writing: the new process writes "0" to it before its
    /// program runs (`HandlerProcess.spawn`), so even its first fork is counted. The caller
    /// closes the descriptor.
    public func openForJoining(_ handler: String, maximum: Int) throws -> Int32 {
        let folder = path(of: handler)
        if mkdir(root, 0o755) == 0, unified { try Self.write("+pids", to: Self.join(root, "cgroup.subtree_control")) }
        try Self.makeFolder(folder)
        try Self.write("\(maximum)", to: Self.join(folder, "pids.max"))
        let procs = Self.join(folder, "cgroup.procs")
        let descriptor = open(procs, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CgroupError("open \(procs): \(String(cString: strerror(errno)))") }
        return descriptor
    }

    /// The processes in the handler's cgroup now.
    public func processes(of handler: String) -> [pid_t] {
        let text = (try? Self.read(Self.join(path(of: handler), "cgroup.procs"))) ?? ""
        return text.split(separator: "\n").compactMap { pid_t($0) }
    }

    /// How often a fork in the handler's cgroup was refused for its limit (`pids.events` max).
    public func refusedForks(of handler: String) -> Int {
        let text = (try? Self.read(Self.join(path(of: handler), "pids.events"))) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix("max ") { return Int(line.dropFirst(4)) ?? 0 }
        return 0
    }

    /// SIGKILL to everything in the handler's cgroup, read again up to ten times while it has
    /// members (a process may fork while the list is read). No waiting: the kernel removes a
    /// killed process from the cgroup once it is reaped.
    public func killAll(_ handler: String) {
        var killed = Set<pid_t>()
        for _ in 0..<10 {
            let pids = processes(of: handler).filter { !killed.contains($0) }
            if pids.isEmpty { return }
            for pid in pids { _ = kill(pid, SIGKILL) }
            killed.formUnion(pids)
        }
    }

    /// Every handler with a cgroup in `root`, by name.
    public func handlers() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { $0.hasPrefix("handler-") }
            .map { String($0.dropFirst("handler-".count)) }.sorted()
    }

    /// Removes the handler cgroups that are empty (the kernel refuses the others), and the
    /// daemon's folder when nothing is left in it.
    public func removeEmpty() {
        for handler in handlers() where processes(of: handler).isEmpty {
            rmdir(path(of: handler))
            if let frozen = freezerPath(of: handler), frozen != path(of: handler) { rmdir(frozen) }
        }
        if handlers().isEmpty {
            rmdir(root)
            if let freezerRoot, freezerRoot != root { rmdir(freezerRoot) }
        }
    }

    // MARK: - Files

    static func instanceName(_ instance: String) -> String {
        // FNV-1a, 64 bits: a short stable name for a path.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in instance.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    static func join(_ folder: String, _ name: String) -> String {
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        return name.hasPrefix("/") ? base + name : base + "/" + name
    }

    /// mountinfo escapes space, tab, newline and backslash as octal (`\040`).
    static func unescapeMountField(_ field: String) -> String {
        var out = ""
        var rest = Substring(field)
        while let slash = rest.firstIndex(of: "\\") {
            out += rest[..<slash]
            let digits = rest[rest.index(after: slash)...].prefix(3)
            if digits.count == 3, let code = UInt8(digits, radix: 8) {
                out.append(Character(UnicodeScalar(code)))
                rest = rest[rest.index(slash, offsetBy: 4)...]
            } else {
                out.append("\\")
                rest = rest[rest.index(after: slash)...]
            }
        }
        return out + rest
    }

    static func makeFolder(_ path: String) throws {
        if mkdir(path, 0o755) != 0 && errno != EEXIST { throw CgroupError("mkdir \(path): \(String(cString: strerror(errno)))") }
    }

    static func read(_ path: String) throws -> String {
        do { return try String(contentsOfFile: path, encoding: .utf8) } catch { throw CgroupError("cannot read \(path)") }
    }

    /// One write(2) of `text`, as cgroup files require.
    static func write(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CgroupError("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let written = text.withCString { Glibc.write(descriptor, $0, strlen($0)) }
        if written < 0 { throw CgroupError("write \(text) to \(path): \(String(cString: strerror(errno)))") }
    }
}

/// A cgroup file could not be made, read or written.
struct CgroupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
