import WaymarkCore
import WaymarkRegions
import WaymarkServices

/// One write a `StoreWriter` applies to the history, with the same rules (and the same SQL) as
/// the store's one-transaction methods named below.
public enum HistoryWrite: Sendable, Equatable {
    /// A timed fix, as `WaymarkStore.recordFix(_:source:)`; yields its row id in `fixes`.
    case fix(Fix, source: String)
    /// No fix at `time`, as `WaymarkStore.recordGap(time:reason:source:)`; yields its row id in `gaps`.
    case gap(time: Timestamp, reason: String, source: String)
    /// An event, as `WaymarkStore.recordEvent(_:)` (`id` is ignored); yields its row id in `events`.
    case event(StoredEvent)
    /// Region states saved at `at`, as `WaymarkStore.saveRegionStates(_:at:)`; yields no id.
    case regionStates([SavedRegionState], at: Timestamp)
    /// Regions established together, as `WaymarkStore.saveRegionsEstablished(_:device:)`; yields no id.
    case regionsEstablished(EstablishedRegions)
    /// Events queued for handlers at `queuedAt` (the daemon's clock), as
    /// `WaymarkStore.enqueueHandlerEvents(_:at:)`; yields one id per event, in order.
    case handlerEvents([QueuedHandlerEvent.New], queuedAt: Timestamp)
    /// A subscriber's services' marks (all of them: the saved set is replaced), as
    /// `WaymarkStore.savedServiceMarks(device:)` reads them back; yields no id.
    case serviceMarks([ServiceMark], subscriber: String)

    /// A few words naming the write in error messages, e.g. `a fix at 2024-01-01T00:00:00Z`.
    var summary: String {
        switch self {
        case .fix(let fix, _): fix.time.map { "a fix at \($0.rfc3339)" } ?? "an untimed fix"
        case .gap(let time, _, _): "a gap at \(time.rfc3339)"
        case .event(let event): "a \(event.kind) event at \(event.time.rfc3339)"
        case .regionStates(let states, _): "\(states.count) region states"
        case .regionsEstablished: "the regions' establishment"
        case .handlerEvents(let events, _): "\(events.count) handler events"
        case .serviceMarks(_, let subscriber): "the service marks of \(subscriber)"
        }
    }
}

extension QueuedHandlerEvent {
    /// An event to queue for a handler (`HistoryWrite.handlerEvents`): the store gives it its id
    /// and counts its deliveries.
    public struct New: Sendable, Equatable {
        /// The handler's registered name.
        public var handler: String
        /// The event's own time (a replay's past, say).
        public var time: Timestamp
        /// The launch reason it carries: `region`, `significantChange`, `visit`, `location`, …
        public var kind: EventKind
        /// The event's JSON object, as replay prints it.
        public var record: String

        public init(handler: String, time: Timestamp, kind: EventKind, record: String) {
            self.handler = handler
            self.time = time
            self.kind = kind
            self.record = record
        }
    }
}
