/// What a committed (acknowledged) write promises to survive. Ordered: `.durable` promises more.
///
/// SQLite's `synchronous` is per connection and per commit, not per row, so it is chosen per
/// commit: a `StoreWriter` group holding any `.durable` submission commits with FULL, which
/// also makes every write committed before it durable (the WAL is one file, synced in order).
/// The numbers behind the choice are in PLATFORM.md ("SQLite and SpatiaLite").
public enum Durability: Sendable, Comparable {
    /// Committed in WAL mode with `synchronous=NORMAL`: survives the process being killed
    /// (SIGKILL, a crash) — the WAL is in the OS page cache — but a power cut may lose the
    /// latest such commits (about half of the simulated cuts did; never with corruption).
    /// For fixes and gaps: one a second, losing the last few to a power cut is acceptable.
    case recorded
    /// Committed with `synchronous=FULL`: the WAL is fsynced before the commit is
    /// acknowledged, so it survives a power cut. For events and handler queues, which are
    /// delivered later from the store.
    case durable

    /// The `PRAGMA synchronous` level a commit at this durability uses.
    var synchronous: SynchronousLevel {
        switch self {
        case .recorded: .normal
        case .durable: .full
        }
    }
}
