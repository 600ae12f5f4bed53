import WaymarkCore

/// One record of the history, as `WaymarkStore.history(_:_:)` streams it.
public enum HistoryItem: Sendable, Equatable {
    case fix(StoredFix)
    case gap(StoredGap)
    case event(StoredEvent)

    /// When it happened.
    public var time: Timestamp {
        switch self {
        case .fix(let fix): fix.time
        case .gap(let gap): gap.time
        case .event(let event): event.time
        }
    }

    /// Which table it comes from.
    public var kind: HistoryKind {
        switch self {
        case .fix: .fix
        case .gap: .gap
        case .event: .event
        }
    }

    /// The JSON Lines record `waymark history` prints for it (one line, no newline).
    public var jsonLine: String {
        switch self {
        case .fix(let fix): fix.jsonLine
        case .gap(let gap): gap.jsonLine
        case .event(let event): event.jsonLine
        }
    }

    /// Its row id within its table.
    var id: Int64 {
        switch self {
        case .fix(let fix): fix.id
        case .gap(let gap): gap.id
        case .event(let event): event.id ?? 0
        }
    }
}
