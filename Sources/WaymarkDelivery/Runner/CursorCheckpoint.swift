/// When a cursor kept in a store is saved (the single daemon's outputs, docs/outputs.md): when
/// forced (nothing new to deliver, or stopping), or once 256 events or 200 ms have passed since
/// the last save. A killed daemon delivers again, with the same CloudEvents ids, at most what it
/// had not saved. A value: the caller passes the instants.
public struct CursorCheckpoint<Instant: InstantProtocol & Sendable>: Sendable where Instant.Duration == Duration {
    /// The last event (history row id) delivered, dead-lettered or not wanted.
    public private(set) var cursor: Int64
    /// The cursor as last saved.
    public private(set) var saved: Int64
    private var savedAt: Instant

    public static var events: Int64 { 256 }
    public static var interval: Duration { .milliseconds(200) }

    public init(cursor: Int64, at now: Instant) {
        self.cursor = cursor
        saved = cursor
        savedAt = now
    }

    /// The cursor moves (past a batch; back to 0 when the history's ids start again).
    public mutating func move(to cursor: Int64) { self.cursor = cursor }

    /// Whether to save the cursor now.
    public func isDue(at now: Instant, force: Bool) -> Bool {
        guard cursor != saved else { return false }
        return force || cursor - saved >= Self.events || savedAt.duration(to: now) >= Self.interval
    }

    /// The cursor was saved at `now`.
    public mutating func didSave(at now: Instant) {
        saved = cursor
        savedAt = now
    }
}
