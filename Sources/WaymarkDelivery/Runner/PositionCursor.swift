import WaymarkOutputs

/// Where an output's positions come from and where their progress is kept (docs/outputs.md,
/// "Runners and cursors"): the history's fixes in SQLite (`StorePositionCursor`) or a fleet's
/// fix stream (its `JetStreamPositionCursor`). `PositionRunner` tells it each fix's fate: done
/// with (published, passed over, not wanted, replaced by a later fix of its device) or held
/// back by the thinning. A held fix is never lost: the cursor keeps it to be read again after
/// a restart until it is settled.
public protocol PositionCursor: Sendable {
    /// Set when the output must stop (a fleet node gives it back).
    var isStopping: Bool { get }
    /// The next fixes in order, every device's; empty when none came before `due` (the next
    /// held fix falls due then; nil: none is held) or for a while; nil when the output stops.
    mutating func next(due: Duration?) async throws -> [OutputFix]?
    /// Done with `fix`.
    mutating func settle(_ fix: OutputFix) async throws
    /// `fix` waits in the thinning.
    mutating func hold(_ fix: OutputFix)
    /// After each read: progress may be saved (never past a held fix).
    mutating func checkpoint() async
    /// Stopping: held fixes go back at once for the next reader; progress kept.
    mutating func release() async
    /// An error of this cursor's, as the log says it.
    func describe(_ error: any Error) -> String
}

extension PositionCursor {
    public func describe(_ error: any Error) -> String { "\(error)" }
}
