/// What a GNSS receiver behind gpsd is doing, from what the daemon did and saw (docs/semantics.md §4,
/// live): `off` while gpsd is not watched (gpsd stops the device when nobody watches),
/// `acquiring` from the start of a watch until the first fix with mode 2D or better, `tracking`
/// while fixes come, and `acquiring` again after a report without a fix (mode 0/1). Pure: the
/// caller feeds what happened and prices the states it returns.
public struct GNSSReceiverState: Sendable, Equatable {
    public enum State: String, Sendable {
        case off, acquiring, tracking
    }

    public private(set) var state: State = .off

    public init() {}

    /// gpsd is watched (and reachable) or not. Returns the new state when it changed.
    public mutating func watching(_ on: Bool) -> State? {
        if !on { return move(to: .off) }
        return state == .off ? move(to: .acquiring) : nil
    }

    /// A report with a fix (mode 2D or 3D). Ignored while not watching (a report already sent).
    public mutating func fix() -> State? {
        state == .off ? nil : move(to: .tracking)
    }

    /// A report without a fix (mode 0/1): the receiver is searching again.
    public mutating func noFix() -> State? {
        state == .off ? nil : move(to: .acquiring)
    }

    private mutating func move(to next: State) -> State? {
        guard next != state else { return nil }
        state = next
        return next
    }
}
