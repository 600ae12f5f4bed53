import WaymarkAPI
import WaymarkCore
import WaymarkPipeline
import WaymarkRegions
import WaymarkServices
import WaymarkStore

/// What a burst of source events produced, in order, waiting to be handed to the store writer
/// as ONE submission: fixes, gaps, events, region states and handlers' queues.
///
/// One submission because the writer commits a submission whole or not at all
/// (docs/durability.md): a fix and the events and region states it caused are never
/// separated by a crash, so a restart that resumes after the last stored fix neither loses
/// those events nor invents them twice. The submission is `.durable` when it holds anything
/// that is delivered later (an event, a handler's queue, a region state), else `.recorded`.
struct WriteBatch {
    /// Every write, in the order it happened (a fix before what it caused).
    private(set) var writes: [HistoryWrite] = []
    /// Whether any write must survive a power cut before anyone hears of it.
    private(set) var isDurable = false
    /// Handler events queued.
    private(set) var queuedCount = 0
    /// Per handler with events queued, the kind of its newest (its launch reason).
    private var newest: [String: EventKind] = [:]
    /// Counts that do not wait for a commit (drops, advertisements).
    private(set) var counts: [String: Int] = [:]

    var isEmpty: Bool { writes.isEmpty }

    mutating func add(_ fix: Fix, source: String) {
        writes.append(.fix(fix, source: source))
    }

    mutating func addGap(time: Timestamp, reason: String, source: String) {
        writes.append(.gap(time: time, reason: reason, source: source))
    }

    mutating func add(_ event: StoredEvent) {
        writes.append(.event(event))
        isDurable = true
    }

    mutating func save(_ states: [SavedRegionState], at time: Timestamp) {
        writes.append(.regionStates(states, at: time))
        isDurable = true
    }

    mutating func save(_ established: EstablishedRegions) {
        writes.append(.regionsEstablished(established))
        isDurable = true
    }

    /// Saves a subscriber's services' marks (docs/semantics.md §2.5) with what changed them.
    mutating func save(_ marks: [ServiceMark], of subscriber: SubscriberID) {
        writes.append(.serviceMarks(marks, subscriber: subscriber.storeKey))
        isDurable = true
    }

    /// Queues events for handlers at `now` (the daemon's clock: ranging freshness and delivery
    /// latency are measured from it).
    mutating func deliver(_ events: [QueuedHandlerEvent.New], at now: Timestamp) {
        guard !events.isEmpty else { return }
        writes.append(.handlerEvents(events, queuedAt: now))
        isDurable = true
        queuedCount += events.count
        for event in events { newest[event.handler] = event.kind }
    }

    /// Handlers to tell, in name order, with the reason to launch them for.
    var newestReasons: [(String, EventKind)] { newest.sorted { $0.key < $1.key } }

    mutating func count(_ name: String, by amount: Int = 1) { counts[name, default: 0] += amount }

    /// A fix kept from the engine (and, for a bad position, from the store), in total and by reason.
    mutating func drop(_ reason: DropReason) {
        count(DaemonStatus.Counter.fixesDropped)
        count(DaemonStatus.Counter.fixesDropped + "." + reason.rawValue)
    }
}

/// What a committed `WriteBatch` gives the live stream and the status board.
struct CommittedBatch {
    /// Fixes, gaps and events with their row ids, in commit order; built only for a live stream.
    var entries: [HistoryEntry] = []
    /// The newest fix recorded.
    var lastFix: HistoryEntry?
    var counts: [String: Int] = [:]

    /// Pairs the writes with the row ids the writer returned (one per fix, gap and event, one
    /// per queued handler event, none for region states). `streaming`: build `entries` (the
    /// JSON of every row) because someone is listening; otherwise only the last fix's.
    init(_ writes: [HistoryWrite], ids: [Int64], device: String, streaming: Bool) {
        var next = ids.makeIterator()
        var (fixes, gaps, events) = (0, 0, 0)
        var newest: (fix: Fix, source: String, id: Int64)?
        for write in writes {
            switch write {
            case .fix(let fix, let source):
                guard let id = next.next() else { break }
                if streaming { entries.append(HistoryEntry(.fix(StoredFix(id: id, fix: fix, source: source, device: device)))) }
                newest = (fix, source, id)
                fixes += 1
            case .gap(let time, let reason, let source):
                guard let id = next.next() else { break }
                if streaming { entries.append(HistoryEntry(.gap(StoredGap(id: id, time: time, reason: reason, source: source, device: device)))) }
                gaps += 1
            case .event(let event):
                let id = next.next()
                if streaming {
                    var event = event
                    event.device = device
                    event.id = id
                    entries.append(
                        HistoryEntry(kind: "event", time: event.time, coordinate: event.coordinate, json: event.jsonLineWithID, device: device))
                }
                events += 1
            case .handlerEvents(let queued, _):
                for _ in queued { _ = next.next() }
            case .regionStates, .regionsEstablished, .serviceMarks:
                break
            }
        }
        lastFix = newest.map { HistoryEntry(.fix(StoredFix(id: $0.id, fix: $0.fix, source: $0.source, device: device))) }
        counts = [
            DaemonStatus.Counter.fixesRecorded: fixes, DaemonStatus.Counter.gapsRecorded: gaps,
            DaemonStatus.Counter.eventsRecorded: events,
        ]
    }
}
