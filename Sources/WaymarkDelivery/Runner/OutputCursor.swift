import WaymarkOutputs

/// Where an output's events come from and where its progress is kept (docs/outputs.md,
/// "Runners and cursors"): the single daemon's history in SQLite (`StoreOutputCursor`) or a
/// fleet's events stream in JetStream (its `JetStreamOutputCursor`). `DeliveryRunner` reads a
/// batch, delivers it, and commits it, or releases it when it stops in the middle: a batch in
/// hand is never skipped. Only the runner calls the mutating methods, one at a time; its lanes
/// call `deadLetter` side by side.
public protocol OutputCursor: Sendable {
    /// Set when the output must stop after the batch in hand (a fleet node gives it back).
    var isStopping: Bool { get }
    /// Dead letters re-queued (`waymark outputs retry`), delivered before anything else,
    /// oldest first; none where the cursor keeps no dead letters to re-queue.
    func requeued() async throws -> [OutputEvent]
    /// A re-queued dead letter was delivered.
    func settleRequeued(_ event: OutputEvent) async throws
    /// The next events in order, all of them (the runner keeps those the output wants); empty
    /// when none came for a while; nil when the output stops (shutting down).
    mutating func next() async throws -> [OutputEvent]?
    /// The batch in hand is done: each event delivered, dead-lettered or not wanted.
    mutating func commit() async throws
    /// Stopping, or the batch could not be settled: the batch in hand (if any) goes back, to be
    /// read again first, after `delay`; progress so far is kept.
    mutating func release(redeliverAfter delay: Duration) async
    /// `event` failed for the output's keep time: kept as a dead letter with the last error.
    func deadLetter(_ event: OutputEvent, error: String) async throws
    /// The receiver said 410: the output is disabled with `reason`.
    func disable(reason: String) async throws
    /// An error of this cursor's, as the log says it.
    func describe(_ error: any Error) -> String
}

extension OutputCursor {
    public func requeued() async throws -> [OutputEvent] { [] }

    public func settleRequeued(_ event: OutputEvent) async throws {}

    public func describe(_ error: any Error) -> String { "\(error)" }
}
