import Foundation
import Synchronization
import WaymarkAPI

/// Fans recorded fixes and events out to every live subscriber (the API's event stream), one
/// array per commit: a commit of 50 fixes is one hand-over per subscriber, not 50 (with a
/// thousand subscribers, per-entry hand-overs cut ingest a hundredfold; BENCHMARKS.md). A slow
/// subscriber loses its oldest commits (beyond `bufferedCommits`) rather than holding the
/// pipeline up or buffering without bound.
///
/// It is also the outputs' doorbell: `committed(.events)` wakes every `watch(.events)` stream
/// once (however many events), so an idle output sleeps until there is something to read; the
/// same for fixes (outputs that publish positions).
final class LiveFeed: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<[HistoryEntry]>.Continuation]>([:])
    /// Commits kept for a subscriber that has not taken them.
    static let bufferedCommits = 256
    /// What an output waits for.
    enum Doorbell: Sendable, Hashable { case events, fixes }

    private let watchers = Mutex<[Doorbell: [UUID: AsyncStream<Void>.Continuation]]>([:])
    /// Called with the new subscriber count whenever a subscriber comes or goes.
    let onChange: @Sendable (Int) -> Void

    init(onChange: @escaping @Sendable (Int) -> Void = { _ in }) { self.onChange = onChange }

    /// Entries published from now on, until `finish()` or the subscriber goes away.
    func subscribe() -> AsyncStream<[HistoryEntry]> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: [HistoryEntry].self, bufferingPolicy: .bufferingNewest(Self.bufferedCommits))
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            let count = subscribers.withLock { $0.removeValue(forKey: id); return $0.count }
            onChange(count)
        }
        let count = subscribers.withLock { $0[id] = continuation; return $0.count }
        onChange(count)
        return stream
    }

    func publish(_ entries: [HistoryEntry]) {
        guard !entries.isEmpty else { return }
        let current = subscribers.withLock { Array($0.values) }
        for continuation in current { continuation.yield(entries) }
    }

    /// A wake each time events (or fixes) have been committed since the last one was taken.
    func watch(_ bell: Doorbell) -> AsyncStream<Void> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        continuation.onTermination = { [weak self] _ in self?.watchers.withLock { _ = $0[bell]?.removeValue(forKey: id) } }
        watchers.withLock { $0[bell, default: [:]][id] = continuation }
        return stream
    }

    func committed(_ bell: Doorbell) {
        for watcher in watchers.withLock({ Array(($0[bell] ?? [:]).values) }) { watcher.yield() }
    }

    /// Ends every stream (shutdown).
    func finish() {
        let current = subscribers.withLock { values -> [AsyncStream<[HistoryEntry]>.Continuation] in
            defer { values.removeAll() }
            return Array(values.values)
        }
        for continuation in current { continuation.finish() }
        for watcher in watchers.withLock({ values in defer { values.removeAll() }; return values.values.flatMap(\.values) }) { watcher.finish() }
    }

    var subscriberCount: Int { subscribers.withLock { $0.count } }
}
