import Foundation
import Synchronization

/// A serial executor with one OS thread of its own, for an actor whose methods make
/// synchronous store calls (SQLite reads and short commits): the actor runs on this thread, so
/// those calls block it and never a thread of Swift's cooperative pool.
///
/// Jobs run one at a time in the order they were enqueued. With nothing to do the thread
/// sleeps on a condition variable with no timeout: an idle executor never wakes up. The thread
/// lives as long as the process (executors are made once per long-lived actor).
public final class DedicatedThreadExecutor: SerialExecutor, Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    private let ready = NSCondition()
    /// The thread's id, once it runs.
    private let thread = Mutex<pthread_t?>(nil)

    /// Starts the thread, named `name` (shown by `top -H` and in `/proc/PID/task/*/comm`).
    /// Linux keeps at most 15 bytes of a thread's name and refuses a longer one outright (the
    /// thread would keep its creator's name), so a longer `name` is a programming error.
    public init(name: String) {
        precondition(name.utf8.count <= 15, "thread name '\(name)' is longer than Linux's 15 bytes")
        Thread { [self] in
            // Named from inside: on Linux a name given before `start` does not reach the kernel.
            Thread.current.name = name
            thread.withLock { $0 = pthread_self() }
            runJobs()
        }.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        ready.lock()
        jobs.withLock { $0.append(job) }
        ready.signal()
        ready.unlock()
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Whether the caller runs on this executor's thread.
    public var isCurrent: Bool {
        guard let own = thread.withLock({ $0 }) else { return false }
        return pthread_equal(own, pthread_self()) != 0
    }

    /// `assumeIsolated` on an actor of this executor, called from elsewhere, stops the process.
    public func checkIsolated() {
        precondition(isCurrent, "not on the \(Thread.current.name ?? "dedicated") executor's thread")
    }

    private func runJobs() {
        while true {
            ready.lock()
            var batch = jobs.withLock { queued in
                defer { queued.removeAll(keepingCapacity: true) }
                return queued
            }
            while batch.isEmpty {
                ready.wait()
                batch = jobs.withLock { queued in
                    defer { queued.removeAll(keepingCapacity: true) }
                    return queued
                }
            }
            ready.unlock()
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
        }
    }
}
