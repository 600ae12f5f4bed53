import Synchronization

/// A `StoreWriter`'s counters since it was created. Read without blocking (atomics), so status
/// pages and benchmarks can look while it runs; the fields are read one by one, so a snapshot
/// taken mid-commit may be off by that commit.
public struct StoreWriterStatistics: Sendable, Equatable {
    /// Transactions committed (groups with at least one write; a group of flushes commits nothing).
    public var commits: Int
    /// Of those, commits made with `synchronous=FULL` (the group held a `.durable` submission).
    public var durableCommits: Int
    /// Writes (`HistoryWrite`s) committed.
    public var writes: Int
    /// Submissions with at least one write committed (flushes are not counted).
    public var submissions: Int
    /// The most writes committed in one transaction.
    public var largestGroup: Int
    /// Submissions that failed: refused writes, whole groups that failed, and submissions made
    /// after the writer was closed.
    public var failures: Int
    /// Groups whose transaction failed as a whole (disk full, I/O error): every submission in
    /// them failed and is counted in `failures` too.
    public var failedGroups: Int

    public init(
        commits: Int = 0, durableCommits: Int = 0, writes: Int = 0, submissions: Int = 0, largestGroup: Int = 0,
        failures: Int = 0, failedGroups: Int = 0
    ) {
        self.commits = commits
        self.durableCommits = durableCommits
        self.writes = writes
        self.submissions = submissions
        self.largestGroup = largestGroup
        self.failures = failures
        self.failedGroups = failedGroups
    }
}

/// The atomics behind `StoreWriterStatistics`. Only the writer thread adds, except `failures`
/// for submissions refused after closing (added by the submitting thread).
final class StoreWriterCounters: Sendable {
    let commits = Atomic<Int>(0)
    let durableCommits = Atomic<Int>(0)
    let writes = Atomic<Int>(0)
    let submissions = Atomic<Int>(0)
    let largestGroup = Atomic<Int>(0)
    let failures = Atomic<Int>(0)
    let failedGroups = Atomic<Int>(0)

    var snapshot: StoreWriterStatistics {
        StoreWriterStatistics(
            commits: commits.load(ordering: .relaxed), durableCommits: durableCommits.load(ordering: .relaxed),
            writes: writes.load(ordering: .relaxed), submissions: submissions.load(ordering: .relaxed),
            largestGroup: largestGroup.load(ordering: .relaxed), failures: failures.load(ordering: .relaxed),
            failedGroups: failedGroups.load(ordering: .relaxed))
    }

    /// Raises `largestGroup` to `writes` (called only from the writer thread).
    func noteGroup(of writes: Int) {
        if writes > largestGroup.load(ordering: .relaxed) { largestGroup.store(writes, ordering: .relaxed) }
    }
}
