import Dispatch
import Foundation
import Logging
import Synchronization

/// Wakes one parked caller: a thread blocked in `submit`/`close`, or a suspended task.
enum WriterWaker: Sendable {
    case semaphore(DispatchSemaphore)
    case continuation(CheckedContinuation<Void, Never>)

    func resume() {
        switch self {
        case .semaphore(let semaphore): semaphore.signal()
        case .continuation(let continuation): continuation.resume()
        }
    }
}

/// What a commit looked like, for tests (`StoreWriter`'s `onCommit` hook).
struct WriterCommitRecord: Sendable, Equatable {
    /// The durability of each submission with writes in the group, in order.
    var durabilities: [Durability]
    /// Writes in the group.
    var writes: Int
    /// `PRAGMA synchronous` read inside the transaction just before it committed: 1 NORMAL, 2 FULL.
    var synchronous: Int
}

/// The `StoreWriter`'s dedicated OS thread and the state it shares with submitters.
///
/// The thread captures this object, not the `StoreWriter`, so dropping the last `StoreWriter`
/// can close it (see `StoreWriter.deinit`). One `Mutex` guards the queue; the thread sleeps on a
/// semaphore that submitters signal only when the queue says to (`StoreWriterQueue.Offer`),
/// so a busy writer costs submitters no system call.
final class WriterThread: Sendable {
    struct State {
        var queue: StoreWriterQueue<WriterWaker>
        var finished = false
        /// Callers of `close`/`shutdown` waiting for the thread to end.
        var joiners: [WriterWaker] = []
        var thread: pthread_t?
    }

    let store: WaymarkStore
    let logger: Logger
    let counters = StoreWriterCounters()
    /// `PRAGMA wal_autocheckpoint` to set on the writer connection inside the next group's
    /// transaction (0: nothing to set). Set there, not when the thread starts, so the writer
    /// never waits for the connection before it has a group to commit.
    let autocheckpointToSet = Atomic<Int>(0)
    let onCommit: (@Sendable (WriterCommitRecord) -> Void)?
    let state: Mutex<State>
    /// Signalled when the sleeping writer has work (or must finish).
    private let wake = DispatchSemaphore(value: 0)

    init(
        store: WaymarkStore, logger: Logger, capacity: Int, maxBatch: Int, maxDelay: Duration,
        onCommit: (@Sendable (WriterCommitRecord) -> Void)?
    ) {
        self.store = store
        self.logger = logger
        self.onCommit = onCommit
        state = Mutex(State(queue: StoreWriterQueue(capacity: capacity, maxBatch: maxBatch, maxDelay: maxDelay)))
    }

    func start() {
        Thread { [self] in run() }.start()
    }

    private func run() {
        state.withLock { $0.thread = pthread_self() }
        // Named from inside: on Linux a name given before `start` does not reach the kernel.
        Thread.current.name = "waymark-writer"
        logger.debug("Store writer started")
        let checkpointer = startCheckpointer()
        loop: while true {
            let step = state.withLock { $0.queue.next(now: .now) }
            switch step {
            case .wait(until: nil):
                wake.wait()
            case .wait(until: let deadline?):
                let (seconds, attoseconds) = (deadline - .now).components
                let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
                _ = wake.wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds)))
            case .commit(let group, let admitted):
                for waker in admitted { waker.resume() }
                commit(group)
                checkpointer?.nudge()
            case .finish:
                break loop
            }
        }
        stop(checkpointer)
        let joiners = state.withLock { state in
            state.finished = true
            defer { state.joiners = [] }
            return state.joiners
        }
        logger.debug("Store writer finished", metadata: ["writer.commits": "\(counters.commits.load(ordering: .relaxed))"])
        for joiner in joiners { joiner.resume() }
    }

    /// Checkpoints move to a thread of their own while the writer runs (`WALCheckpointer`);
    /// an in-memory store has no WAL.
    private func startCheckpointer() -> WALCheckpointer? {
        guard let path = store.path else { return nil }
        do {
            let checkpointer = try WALCheckpointer(path: path, logger: logger)
            autocheckpointToSet.store(WALCheckpointer.fallbackPages, ordering: .relaxed)
            return checkpointer
        } catch {
            logger.warning("Checkpoints stay on the writer", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Gives checkpoints back to whoever commits on the store's writer connection.
    private func stop(_ checkpointer: WALCheckpointer?) {
        guard let checkpointer else { return }
        checkpointer.close()
        try? store.database.writeWithoutTransaction {
            try $0.execute(sql: "PRAGMA wal_autocheckpoint = \(WALCheckpointer.defaultPages)")
        }
    }

    /// Whether the caller is the writer thread itself (a completion submitting or closing).
    private func onWriterThread(_ state: State) -> Bool {
        state.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    /// Queues `submission`, blocking the calling thread while the queue is full (never on the
    /// writer thread itself, which must not wait for itself). A refused one fails at once.
    func submitBlocking(_ submission: WriterSubmission) {
        let (offer, semaphore) = state.withLock { state -> (StoreWriterQueue<WriterWaker>.Offer, DispatchSemaphore?) in
            var semaphore: DispatchSemaphore? = nil
            if !state.queue.wouldQueue(submission) && !onWriterThread(state) { semaphore = DispatchSemaphore(value: 0) }
            let offer = state.queue.offer(submission, waker: semaphore.map(WriterWaker.semaphore))
            return (offer, semaphore)
        }
        switch offer {
        case .queued(let wakeWriter):
            if wakeWriter { wake.signal() }
        case .parked(let wakeWriter):
            if wakeWriter { wake.signal() }
            semaphore?.wait()
        case .refused:
            refuse(submission)
        }
    }

    /// Queues `submission`, suspending (not blocking) the calling task while the queue is full.
    func submitSuspending(_ submission: WriterSubmission) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let offer = state.withLock { $0.queue.offer(submission, waker: .continuation(continuation)) }
            switch offer {
            case .queued(let wakeWriter):
                if wakeWriter { wake.signal() }
                continuation.resume()
            case .parked(let wakeWriter):
                if wakeWriter { wake.signal() }
            case .refused:
                refuse(submission)
                continuation.resume()
            }
        }
    }

    /// Queues `submission` without ever waiting: when the queue is full it parks with its
    /// completion, which already tells the caller when it is done.
    func submitParking(_ submission: WriterSubmission) {
        switch state.withLock({ $0.queue.offer(submission, waker: nil) }) {
        case .queued(let wakeWriter), .parked(let wakeWriter):
            if wakeWriter { wake.signal() }
        case .refused:
            refuse(submission)
        }
    }

    private func refuse(_ submission: WriterSubmission) {
        if !submission.writes.isEmpty { counters.failures.add(1, ordering: .relaxed) }
        let error = StoreError(
            code: .writerClosed,
            message: "the store writer is closed; \(submission.writes.count) writes submitted after closing were not recorded",
            path: store.path)
        deliver(.failure(error), to: submission)
    }

    /// Stops accepting submissions, lets the thread drain what was submitted, and returns
    /// whether the caller must wait for it to finish (with the semaphore to wait on).
    func close(waiting: Bool) -> DispatchSemaphore? {
        let (wakeWriter, semaphore) = state.withLock { state -> (Bool, DispatchSemaphore?) in
            let wakeWriter = state.queue.close()
            guard waiting, !state.finished, !onWriterThread(state) else { return (wakeWriter, nil) }
            let semaphore = DispatchSemaphore(value: 0)
            state.joiners.append(.semaphore(semaphore))
            return (wakeWriter, semaphore)
        }
        if wakeWriter { wake.signal() }
        return semaphore
    }

    /// `close`, suspending until the thread has finished.
    func closeSuspending() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (wakeWriter, mustWait) = state.withLock { state -> (Bool, Bool) in
                let wakeWriter = state.queue.close()
                guard !state.finished, !onWriterThread(state) else { return (wakeWriter, false) }
                state.joiners.append(.continuation(continuation))
                return (wakeWriter, true)
            }
            if wakeWriter { wake.signal() }
            if !mustWait { continuation.resume() }
        }
    }

    /// Hands a submission its result; a failure nobody asked to hear about is logged.
    func deliver(_ result: Result<[Int64], StoreError>, to submission: WriterSubmission) {
        if let completion = submission.completion {
            completion(result)
        } else if case .failure(let error) = result {
            logger.error(
                "History write failed",
                metadata: ["store.error.code": "\(error.code)", "store.error": "\(error.message)"])
        }
    }
}
