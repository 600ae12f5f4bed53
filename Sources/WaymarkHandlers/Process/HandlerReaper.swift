#if canImport(Glibc)
import Glibc
#endif
import CWaymarkSpawn
import Foundation
import Synchronization

/// Reports the end of handler processes without a thread per child (docs/platform.md): each
/// child is watched through a pidfd, and one dedicated thread polls them all, reaps each with
/// `waitid(P_PIDFD)` once it is readable, and calls its callback. Nothing blocks the
/// cooperative pool, and a reaped PID is never waited for or confused with a recycled one.
public final class HandlerReaper: Sendable {
    /// The exit status, or the terminating signal (both nil when the status was lost).
    public typealias Exit = @Sendable (_ code: Int32?, _ signal: Int32?) -> Void

    /// One reaper for the whole process; its thread starts with the first watch.
    public static let shared = HandlerReaper()

    private struct State {
        var watched: [Int32: Exit] = [:]
        var started = false
    }

    private let state = Mutex(State())
    /// A pipe whose write end wakes the thread when a child is added.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    /// Calls `exited` once, when `process` has ended and has been reaped. Without a pidfd (a
    /// kernel before 5.3, or no descriptor left) a thread waits for this child alone.
    public func watch(_ process: HandlerProcess, exited: @escaping Exit) {
        let pidfd = waymark_pidfd_open(process.pid)
        guard pidfd >= 0, wakeRead >= 0 else {
            if pidfd >= 0 { close(pidfd) }
            let thread = Thread {
                let status = process.waitForExit()
                exited(status.code, status.signal)
            }
            thread.name = "waymark-handler-wait"
            return thread.start()
        }
        let start = state.withLock { state in
            state.watched[pidfd] = exited
            defer { state.started = true }
            return !state.started
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "waymark-handler-reaper"
            thread.start()
        } else {
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
    }

    /// Polls the wake pipe and every watched pidfd, forever.
    private func run() {
        while true {
            let watched = state.withLock { Array($0.watched.keys) }
            var descriptors = ([wakeRead] + watched).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), -1) > 0 else { continue }  // EINTR
            if descriptors[0].revents != 0 { drainWakes() }
            for descriptor in descriptors.dropFirst() where descriptor.revents != 0 {
                reap(descriptor.fd)
            }
        }
    }

    private func reap(_ pidfd: Int32) {
        var code: Int32 = -1
        var signal: Int32 = 0
        let reaped = waymark_pidfd_wait(pidfd, &code, &signal) == 0
        let exited = state.withLock { $0.watched.removeValue(forKey: pidfd) }
        close(pidfd)
        guard reaped else { return (exited?(nil, nil)) ?? () }
        exited?(code >= 0 ? code : nil, code >= 0 ? nil : signal)
    }

    private func drainWakes() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }
}
