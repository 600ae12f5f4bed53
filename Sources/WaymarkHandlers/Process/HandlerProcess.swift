#if canImport(Glibc)
import Glibc
#endif
import CWaymarkSpawn
import Foundation
import Synchronization

/// A handler's process, started with `posix_spawn` (never a shell) in a session of its own, so
/// signals to its process group reach everything it started (docs/platform.md).
public struct HandlerProcess: Sendable, Equatable {
    public let pid: pid_t

    /// Capabilities the daemon holds as ambient ones (systemd's `AmbientCapabilities=CAP_NET_RAW`
    /// for Bluetooth, packaging/waymark.service.d/bluetooth.conf) would pass to every program it
    /// executes; cleared once at start, handlers get none. The daemon keeps them. False when the
    /// kernel refused (it has no ambient capabilities: nothing to clear).
    @discardableResult
    public static func withholdAmbientCapabilities() -> Bool { waymark_clear_ambient_capabilities() == 0 }

    /// The daemon may serve thousands of connections (devices, live streams): its soft limit on
    /// descriptors (1,024 under systemd by default) is raised to the hard one at start. Handlers
    /// get the limit the daemon started with back (`spawn`), as systemd intends for programs
    /// that may still use select(2).
    public static func raiseDescriptorLimit() {
        let before = waymark_raise_descriptor_limit()
        if before > 0 { inheritedDescriptorLimit.withLock { $0 = UInt64(before) } }
    }

    private static let inheritedDescriptorLimit = Mutex<UInt64?>(nil)

    /// Starts `executable` with exactly `arguments` and `environment`, in `directory`, stdin
    /// from /dev/null, stdout and stderr to `logPath` (appended) or /dev/null, no other
    /// descriptors, in a session of its own. When `cgroupProcs` is an open `cgroup.procs` the
    /// child joins that cgroup before the program runs (and `freezerProcs`'s, a second
    /// hierarchy's, likewise), and `memoryLimit` (RLIMIT_AS) and the
    /// descriptor limit the daemon started with are set in it then too: nothing the program does
    /// happens outside them (`waymark_spawn_process`). Throws a message naming what failed (a
    /// missing or non-executable file).
    public static func spawn(
        executable: String, arguments: [String], environment: [String: String], directory: String,
        logPath: String?, memoryLimit: Int? = nil, cgroupProcs: Int32 = -1, freezerProcs: Int32 = -1
    ) throws -> HandlerProcess {
        guard isExecutableFile(executable) else {
            throw HandlerError.cannotLaunch("\(executable) is not an executable file")
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        let descriptors = inheritedDescriptorLimit.withLock { $0 } ?? 0
        let pid = waymark_spawn_process(
            executable, argv, envp, directory, logPath ?? "/dev/null", cgroupProcs, freezerProcs, UInt64(memoryLimit ?? 0), descriptors)
        guard pid > 0 else {
            throw HandlerError.cannotLaunch("starting \(executable): \(String(cString: strerror(errno)))")
        }
        return HandlerProcess(pid: pid)
    }

    /// A regular file with an execute bit (`access(X_OK)` says yes to root for any file).
    public static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG && (info.st_mode & 0o111) != 0 && access(path, X_OK) == 0
    }

    /// Sends `signal` to the process group (the handler and what it started).
    @discardableResult
    public func signalGroup(_ signal: Int32) -> Bool { kill(-pid, signal) == 0 || kill(pid, signal) == 0 }

    /// SIGKILL to the process group only, never to the PID alone: after the handler itself has
    /// been reaped its PID may belong to someone else, but its group lives on while any of its
    /// children do (a group id is not reused while the group has members).
    public func killGroup() { _ = kill(-pid, SIGKILL) }

    /// Waits for the process to end (blocking; call it off the cooperative pool) and returns
    /// a description: `exit N` or `signal N`.
    public func waitForExit() -> (code: Int32?, signal: Int32?) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let terminatingSignal = status & 0x7f
        if terminatingSignal == 0 { return ((status >> 8) & 0xff, nil) }
        return (nil, terminatingSignal)
    }

    /// The state letter in /proc/PID/stat (`S`, `R`, `T` when stopped, `Z`…), nil when gone.
    public static func state(of pid: pid_t) -> Character? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        return text[text.index(after: close)...].first { $0 != " " }
    }
}

/// Why a handler operation failed.
public enum HandlerError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotLaunch(String)
    case invalidRegistration(String)
    case unknownHandler(String)

    public var description: String {
        switch self {
        case .cannotLaunch(let message), .invalidRegistration(let message): message
        case .unknownHandler(let name): "no handler named '\(name)'"
        }
    }
}
