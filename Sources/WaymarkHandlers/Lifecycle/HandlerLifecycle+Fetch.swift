import WaymarkCore

/// Background fetch (docs/semantics.md §1.5): handlers registered with `--fetch-interval` are
/// woken periodically, never more often than they asked, less often when their fetches find
/// nothing or their standing is poor, and together: the first handler due waits a little (a tenth
/// of its interval, at most 30 s) for others to fall due, and all that are due then are woken
/// at once.
extension HandlerLifecycle {
    /// How a fetch went, as the handler says in `finished` (`result`).
    public enum FetchResult: String, Sendable, Equatable {
        case newData, noData, failed
    }

    /// Longest a due fetch waits for others to join it, seconds.
    static let fetchCoalescing = 30.0
    /// Most a run of empty or failed fetches stretches the interval.
    static let fetchBackoffLimit = 8.0

    /// Queues a fetch for every handler due, when the first one's coalescing window has passed.
    mutating func wakeForFetches() {
        guard let moment = handlers.values.compactMap(\.fetchMoment).min(), moment <= now else { return }
        for name in handlers.keys.sorted() where handlers[name]!.fetchDue.map({ $0 <= now }) == true {
            let handler = handlers[name]!
            handlers[name]!.fetchDue = handler.effectiveFetchInterval.map { now.adding(seconds: $0) }
            // A force-quit handler gets no fetches, as on a phone; nor one without background refresh.
            guard handler.registration.backgroundRefresh, !handler.forceQuit, !shuttingDown else { continue }
            actions.append(.queueFetch(handler: name))
        }
    }

    /// The handler's answer to a fetch: `newData` brings its interval back to what it asked;
    /// `noData` and `failed` double it, up to 8×.
    mutating func fetchResult(_ name: String, _ result: FetchResult) {
        guard let handler = handlers[name], handler.registration.fetchInterval != nil else { return }
        handlers[name]!.fetchBackoff = result == .newData ? 1 : min(Self.fetchBackoffLimit, handler.fetchBackoff * 2)
        handlers[name]!.fetchDue = handlers[name]!.effectiveFetchInterval.map { now.adding(seconds: $0) }
    }

    /// After a registration: a new fetch interval schedules the first fetch one interval from
    /// now; a removed one cancels it.
    mutating func scheduleFetch(_ name: String) {
        guard let handler = handlers[name] else { return }
        if handler.registration.fetchInterval == nil {
            handlers[name]!.fetchDue = nil
        } else if handler.fetchDue == nil {
            handlers[name]!.fetchDue = handler.effectiveFetchInterval.map { now.adding(seconds: $0) }
        }
    }
}

extension HandlerLifecycle.Handler {
    /// The seconds to the next fetch: what it asked, stretched by empty fetches and by its
    /// standing (a handler whose budget is cut to a quarter is fetched a quarter as often).
    var effectiveFetchInterval: Double? {
        guard let interval = registration.fetchInterval else { return nil }
        let share = registration.limits.budget > 0 ? min(1, limits.budget / registration.limits.budget) : 1
        return interval * fetchBackoff / max(share, 0.25)
    }

    /// When its fetch will be made: its due time plus the coalescing window.
    var fetchMoment: Timestamp? {
        guard let due = fetchDue, let interval = effectiveFetchInterval else { return nil }
        return due.adding(seconds: min(HandlerLifecycle.fetchCoalescing, interval / 10))
    }
}
