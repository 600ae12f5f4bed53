import Dispatch
import Logging
import WaymarkDevices

/// Writes the history in groups, on one dedicated OS thread, so that callers on Swift's
/// cooperative pool never wait for SQLite and a commit (and its fsync, if any) is shared by
/// every write submitted meanwhile.
///
/// Submissions queue up; the writer thread takes everything queued (up to `maxBatch` writes)
/// and writes it in ONE immediate transaction on the store's writer connection, then commits.
/// Group commit comes by itself: while one commit runs, new submissions accumulate for the next.
///
/// - Atomicity: a submission (an array of `HistoryWrite`s) is committed whole or not at all.
///   Each runs inside its own SAVEPOINT, so one the store refuses (an untimed fix, latitude 91,
///   a record that is not JSON…) fails alone, with a `StoreError` naming the write, and the
///   rest of its group commits. A failure of the transaction itself (disk full, I/O error)
///   fails every submission of that group with the error; the writer goes on with the next.
/// - Durability (`Durability`): a group commits with `synchronous=NORMAL`, or FULL when it
///   holds any `.durable` submission (which also makes every earlier commit durable). A
///   completion reporting success means committed at that level; nothing is promised before.
/// - Order: submissions commit in submission order (order between threads is the order they
///   took the lock), row ids ascend in that order, and completions run in that order.
/// - Completions run on the writer thread, after the commit; they must be quick and must not
///   block (hop to a task or queue for real work). A completion may submit again; it must not
///   wait for the writer (`flush`, or `close` expecting a drained queue).
/// - Backpressure: at most `queueCapacity` writes wait at once (a larger submission is let in
///   alone). Beyond that `submit` BLOCKS its thread until a group is taken — fine for a source's
///   own thread, wrong on the cooperative pool: async callers use `enqueue` (suspends) or
///   `write` (suspends until committed).
/// - Coalescing delay: a group that is not urgent waits up to `maxDelay` after its oldest
///   submission for company. Urgent (taken at once): a `.durable` submission or a `flush` is
///   queued, `maxBatch` writes are waiting, the queue is full, or the writer is closing. With a
///   steady producer, groups come from the commit time alone; the delay only matters at low
///   rates, where it bounds the added latency (default 2 ms, against a fix a second) and turns
///   bursts of single writes into one commit each instead of one per write.
/// - Closing (`close`, `shutdown`, or dropping the last reference): submissions already made
///   are committed; later ones fail at once with `StoreError` `.writerClosed`, their completion
///   called on the submitting thread. Dropping without closing does not wait for the drain.
///
/// Design change from the brief: a full queue parks the submission itself (in order) rather
/// than making the submitter retry, so `write` never blocks and FIFO order holds for blocked,
/// suspended and parked submitters alike.
public final class StoreWriter: Sendable {
    /// The store written to; other writes through it (imports, handler registrations) are
    /// serialised with the groups by GRDB.
    public let store: WaymarkStore
    /// Most writes committed in one transaction.
    public let maxBatch: Int
    /// Longest a non-urgent submission waits for company (see the coalescing rule).
    public let maxDelay: Duration
    /// Most writes waiting to be taken before `submit` blocks and `enqueue` suspends.
    public let queueCapacity: Int
    let thread: WriterThread

    /// Starts the writer thread.
    ///
    /// - Parameters:
    ///   - maxBatch: most writes in one transaction (default 4,096: about 40 ms of SpatiaLite
    ///     fix inserts, so a durable write queued behind a full group waits at most that long).
    ///   - maxDelay: the coalescing delay (default 2 ms; `.zero` commits as soon as the writer is free).
    ///   - queueCapacity: writes waiting at most (default 65,536, about 0.65 s of writes at 100,000/s).
    public convenience init(
        store: WaymarkStore, logger: Logger, maxBatch: Int = 4_096, maxDelay: Duration = .milliseconds(2),
        queueCapacity: Int = 65_536
    ) {
        self.init(
            store: store, logger: logger, maxBatch: maxBatch, maxDelay: maxDelay, queueCapacity: queueCapacity,
            onCommit: nil)
    }

    /// `onCommit` is a test hook called on the writer thread after each commit, before the
    /// completions, with what was committed and the `synchronous` level in force at the commit.
    init(
        store: WaymarkStore, logger: Logger, maxBatch: Int, maxDelay: Duration, queueCapacity: Int,
        onCommit: (@Sendable (WriterCommitRecord) -> Void)?
    ) {
        precondition(maxBatch > 0, "maxBatch must be positive")
        precondition(queueCapacity > 0, "queueCapacity must be positive")
        precondition(maxDelay >= .zero, "maxDelay must not be negative")
        self.store = store
        self.maxBatch = maxBatch
        self.maxDelay = maxDelay
        self.queueCapacity = queueCapacity
        var logger = logger
        logger[metadataKey: "store.path"] = "\(store.path ?? ":memory:")"
        thread = WriterThread(
            store: store, logger: logger, capacity: queueCapacity, maxBatch: maxBatch, maxDelay: maxDelay,
            onCommit: onCommit)
        thread.start()
    }

    /// Closes without waiting: what was submitted is still committed by the thread, which then ends.
    deinit {
        _ = thread.close(waiting: false)
    }

    /// Submits `writes` to be committed together; returns once they are queued.
    ///
    /// Never blocks, except while the queue is full (backpressure): then the calling thread
    /// waits until a group is taken. Do not call it from async code (use `enqueue` or `write`).
    ///
    /// - Parameter completion: called once, on the writer thread after the commit (in
    ///   submission order), with the row ids of the fixes, gaps, events and handler events
    ///   inserted, in order (region-state saves add none); or the `StoreError` that refused the
    ///   submission. After `close` it is called at once on this thread with `.writerClosed`.
    ///   Without a completion, failures are logged.
    public func submit(
        _ writes: [HistoryWrite], device: String = Device.localName, durability: Durability,
        completion: (@Sendable (Result<[Int64], StoreError>) -> Void)? = nil
    ) {
        thread.submitBlocking(submission(writes, device, durability, completion))
    }

    /// `submit` for async callers: suspends instead of blocking while the queue is full, and
    /// returns once the writes are queued (not yet committed; `completion` says when).
    public func enqueue(
        _ writes: [HistoryWrite], device: String = Device.localName, durability: Durability,
        completion: (@Sendable (Result<[Int64], StoreError>) -> Void)? = nil
    ) async {
        await thread.submitSuspending(submission(writes, device, durability, completion))
    }

    /// Writes `writes` together and returns, once committed at `durability`, the row ids of the
    /// fixes, gaps, events and handler events inserted, in order. Suspends, never blocks.
    ///
    /// - Throws: `StoreError`: `.invalidRecord` when the store refuses one of the writes (none
    ///   of them is then recorded), `.writerClosed` after `close`, `.database` when the group's
    ///   transaction failed.
    public func write(_ writes: [HistoryWrite], device: String = Device.localName, durability: Durability) async throws -> [Int64] {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[Int64], StoreError>, Never>) in
            thread.submitParking(submission(writes, device, durability) { continuation.resume(returning: $0) })
        }
        return try result.get()
    }

    /// Returns once everything submitted before the call is committed (or has failed), at the
    /// durability it was submitted with. Skips the coalescing delay. Returns at once after `close`.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            thread.submitParking(
                WriterSubmission(writes: [], durability: .recorded, urgent: true, completion: { _ in continuation.resume() }, enqueuedAt: .now))
        }
    }

    /// Stops accepting submissions, commits everything submitted before, and waits (blocking
    /// the calling thread) until the writer thread has ended. Idempotent. From async code use
    /// `shutdown`. Called from a completion (the writer thread) it closes without waiting.
    public func close() {
        thread.close(waiting: true)?.wait()
    }

    /// `close` for async callers: suspends until the writer thread has drained and ended.
    public func shutdown() async {
        await thread.closeSuspending()
    }

    /// Counters since the writer started; never blocks.
    public var statistics: StoreWriterStatistics { thread.counters.snapshot }

    private func submission(
        _ writes: [HistoryWrite], _ device: String, _ durability: Durability,
        _ completion: (@Sendable (Result<[Int64], StoreError>) -> Void)?
    ) -> WriterSubmission {
        WriterSubmission(
            writes: writes, device: device, durability: durability, urgent: durability == .durable, completion: completion,
            enqueuedAt: .now)
    }
}
