/// Whether something is there — a receiver, an adapter, a fix — told as changes: the state the
/// daemon starts in is learnt, not announced (a daemon restart is not an attachment), and each
/// later change is reported once. Pure.
public struct PresenceWatch: Sendable, Equatable {
    public private(set) var present: Bool?

    public init() {}

    /// Records what is seen now; `true` when it appeared, `false` when it went away, nil when
    /// nothing changed or this is the first look.
    public mutating func see(_ present: Bool) -> Bool? {
        defer { self.present = present }
        guard let before = self.present, before != present else { return nil }
        return present
    }
}
