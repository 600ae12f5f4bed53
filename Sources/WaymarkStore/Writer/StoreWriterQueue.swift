/// A submission waiting in a `StoreWriter`: writes committed together or not at all.
struct WriterSubmission: Sendable {
    var writes: [HistoryWrite]
    /// The device every write in it belongs to (docs/devices.md).
    var device: String = "local"
    var durability: Durability
    /// Skips the coalescing delay: durable writes and flushes are waited for by someone.
    var urgent: Bool
    /// Called on the writer thread after the commit (or on the submitting thread when refused).
    var completion: (@Sendable (Result<[Int64], StoreError>) -> Void)?
    /// When it was offered; the coalescing delay runs from the oldest queued submission's.
    var enqueuedAt: ContinuousClock.Instant

    /// Places it takes in the bounded queue: its writes, or one for an empty flush marker.
    var weight: Int { max(1, writes.count) }
}

/// The `StoreWriter`'s pending work and its rules, as a value: no locks, no threads, no clock
/// reads (the time is given). The writer thread and the submitters hold it under one lock and
/// perform what it answers (AsyncHTTPClient's connection-pool state machine is the model).
///
/// Rules:
/// - Bounded: queued submissions hold at most `capacity` places (writes); a submission is
///   queued when it fits, or when the queue is empty (so one larger than `capacity` still goes
///   through). Otherwise it is *parked*, in order, and admitted when a group taken off the queue
///   makes room; everything offered after it parks behind it, so submission order is kept.
/// - Groups: the writer takes queued submissions in order, up to `maxBatch` writes (at least
///   one submission, whatever its size); a submission is never split.
/// - Coalescing: a group is taken at once when it is urgent (a durable write or a flush is
///   queued, `maxBatch` writes are waiting, a submission is parked, or the writer is closing);
///   otherwise not before `maxDelay` after its oldest submission was queued.
/// - Closing refuses new submissions; the writer finishes once the queue and parking are empty.
///
/// `Waker` is whatever wakes a parked submitter (a semaphore, a continuation).
struct StoreWriterQueue<Waker> {
    /// What became of an offered submission.
    enum Offer: Equatable {
        /// Queued; wake the writer if `wakeWriter`.
        case queued(wakeWriter: Bool)
        /// Parked until there is room: its waker is returned by a later `next`.
        case parked(wakeWriter: Bool)
        /// The writer is closing; nothing was queued.
        case refused
    }

    /// What the writer thread does next.
    enum Step {
        /// Commit these submissions as one group; first wake the parked submitters now queued.
        case commit([WriterSubmission], admitted: [Waker])
        /// Sleep until woken, or until the instant when one is given.
        case wait(until: ContinuousClock.Instant?)
        /// Closed and drained: the thread ends.
        case finish
    }

    /// Most places (writes) queued at once; see the type's rules.
    let capacity: Int
    /// Most writes committed in one group.
    let maxBatch: Int
    /// Longest a non-urgent submission waits for company before its group is taken.
    let maxDelay: Duration

    private var queued: [WriterSubmission] = []
    private var head = 0
    /// Places taken by queued submissions.
    private(set) var pendingPlaces = 0
    private var urgentQueued = 0
    private var parked: [(submission: WriterSubmission, waker: Waker?)] = []
    private(set) var isClosing = false
    /// Whether the writer is asleep (after a `wait` step) and not yet woken.
    private var writerAsleep = false

    init(capacity: Int, maxBatch: Int, maxDelay: Duration) {
        precondition(capacity > 0 && maxBatch > 0 && maxDelay >= .zero, "StoreWriterQueue needs positive limits")
        self.capacity = capacity
        self.maxBatch = maxBatch
        self.maxDelay = maxDelay
    }

    /// Submissions queued or parked, not yet taken.
    var waitingCount: Int { queued.count - head + parked.count }

    /// Whether `offer` would queue `submission` now (false: it would park, or be refused).
    func wouldQueue(_ submission: WriterSubmission) -> Bool {
        !isClosing && parked.isEmpty && fits(submission)
    }

    /// Offers a submission; `waker` is kept if it has to park.
    mutating func offer(_ submission: WriterSubmission, waker: Waker?) -> Offer {
        if isClosing { return .refused }
        if wouldQueue(submission) {
            let wasEmpty = head == queued.count
            append(submission)
            let wake = writerAsleep && (wasEmpty || submission.urgent || pendingPlaces >= maxBatch)
            if wake { writerAsleep = false }
            return .queued(wakeWriter: wake)
        }
        parked.append((submission, waker))
        let wake = writerAsleep
        writerAsleep = false
        return .parked(wakeWriter: wake)
    }

    /// Stops accepting submissions; returns whether the writer must be woken to drain and finish.
    mutating func close() -> Bool {
        isClosing = true
        let wake = writerAsleep
        writerAsleep = false
        return wake
    }

    /// The writer's next step at `now`.
    mutating func next(now: ContinuousClock.Instant) -> Step {
        writerAsleep = false
        guard head < queued.count else {
            if isClosing { return .finish }
            writerAsleep = true
            return .wait(until: nil)
        }
        let urgent = isClosing || urgentQueued > 0 || pendingPlaces >= maxBatch || !parked.isEmpty
        let deadline = queued[head].enqueuedAt.advanced(by: maxDelay)
        if !urgent && now < deadline {
            writerAsleep = true
            return .wait(until: deadline)
        }
        let group = takeGroup()
        return .commit(group, admitted: admitParked())
    }

    private func fits(_ submission: WriterSubmission) -> Bool {
        pendingPlaces == 0 || pendingPlaces + submission.weight <= capacity
    }

    private mutating func append(_ submission: WriterSubmission) {
        queued.append(submission)
        pendingPlaces += submission.weight
        if submission.urgent { urgentQueued += 1 }
    }

    private mutating func takeGroup() -> [WriterSubmission] {
        var group: [WriterSubmission] = []
        var writes = 0
        while head < queued.count {
            let submission = queued[head]
            if !group.isEmpty && writes + submission.writes.count > maxBatch { break }
            group.append(submission)
            writes += submission.writes.count
            pendingPlaces -= submission.weight
            if submission.urgent { urgentQueued -= 1 }
            head += 1
        }
        if head == queued.count {
            queued.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= queued.count {
            queued.removeFirst(head)
            head = 0
        }
        return group
    }

    /// Moves parked submissions that now fit into the queue, in order; returns their wakers.
    private mutating func admitParked() -> [Waker] {
        var admitted: [Waker] = []
        var count = 0
        while count < parked.count && fits(parked[count].submission) {
            append(parked[count].submission)
            if let waker = parked[count].waker { admitted.append(waker) }
            count += 1
        }
        parked.removeFirst(count)
        return admitted
    }
}
