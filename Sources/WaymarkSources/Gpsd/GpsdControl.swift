import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The state a ``GpsdSource`` shares with its reader thread: what the caller wants (stop,
/// watch) and whether the thread has finished. The thread waits on it between reconnection
/// attempts, and while connected it polls ``wakeDescriptor`` beside gpsd's socket, so a new
/// wish wakes it at once and nothing wakes it on a timer.
final class GpsdControl: @unchecked Sendable {
    /// The read end of a pipe that gets a byte whenever a wish changes; the reader thread polls
    /// it and calls ``drainWakes()``. Non-blocking and close-on-exec, both ends.
    let wakeDescriptor: Int32
    private let wakeWriter: Int32

    // Every stored property below is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var stopRequested = false
    private var watching = true
    private var started = false
    private var finished = false
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []

    /// What the reader thread should do now.
    struct Wishes { var stop: Bool; var watching: Bool }

    init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("cannot create the gpsd reader's wake pipe: \(String(cString: strerror(errno)))") }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakeDescriptor = ends[0]
        wakeWriter = ends[1]
    }

    deinit {
        close(wakeDescriptor)
        close(wakeWriter)
    }

    /// Empties the wake pipe (the reader thread, after its poll returned).
    func drainWakes() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(wakeDescriptor, &bytes, bytes.count) > 0 {}
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)  // a full pipe already wakes the reader
    }

    var wishes: Wishes {
        condition.withLock { Wishes(stop: stopRequested, watching: watching) }
    }

    /// Marks the thread as started; `false` if it already was (or the source was stopped).
    func claimStart() -> Bool {
        condition.withLock {
            if started || stopRequested { return false }
            started = true
            return true
        }
    }

    var hasStarted: Bool { condition.withLock { started } }

    func setWatching(_ on: Bool) {
        condition.withLock { watching = on }
        wake()
    }

    func requestStop() {
        condition.withLock {
            stopRequested = true
            condition.broadcast()
        }
        wake()
    }

    /// Sleeps for `duration` or until a stop is requested; `true` when a stop was requested.
    func sleep(for duration: Duration) -> Bool {
        let deadline = Date(timeIntervalSinceNow: duration.inSeconds)
        condition.lock()
        defer { condition.unlock() }
        while !stopRequested {
            if !condition.wait(until: deadline) { break }
        }
        return stopRequested
    }

    /// Called by the reader thread as its last act.
    func markFinished() {
        let waiters = condition.withLock {
            finished = true
            condition.broadcast()
            let waiters = finishWaiters
            finishWaiters = []
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Blocks until the reader thread has finished; returns at once if it never started.
    func waitUntilFinished() {
        condition.lock()
        defer { condition.unlock() }
        while started && !finished { condition.wait() }
    }

    /// Suspends until the reader thread has finished.
    func finishedAsync() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = condition.withLock {
                if finished || !started { return true }
                finishWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
