import Foundation
import Synchronization
import WaymarkAPI

/// Fans recorded fixes and events out to every live subscriber (the API's event stream).
/// A slow subscriber loses its oldest entries rather than holding the pipeline up.
///
/// It is also the outputs' doorbell: `eventsCommitted()` wakes every `watchEvents()` stream once
/// (however many events), so an idle output sleeps until there is something to read.
final class LiveFeed: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<HistoryEntry>.Continuation]>([:])
    private let eventWatchers = Mutex<[UUID: AsyncStream<Void>.Continuation]>([:])
    /// Called with the new subscriber count whenever a subscriber comes or goes.
    let onChange: @Sendable (Int) -> Void

    init(onChange: @escaping @Sendable (Int) -> Void = { _ in }) { self.onChange = onChange }

    /// Entries published from now on, until `finish()` or the subscriber goes away.
    func subscribe() -> AsyncStream<HistoryEntry> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: HistoryEntry.self, bufferingPolicy: .bufferingNewest(1024))
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            let count = subscribers.withLock { $0.removeValue(forKey: id); return $0.count }
            onChange(count)
        }
        let count = subscribers.withLock { $0[id] = continuation; return $0.count }
        onChange(count)
        return stream
    }

    func publish(_ entry: HistoryEntry) {
        let current = subscribers.withLock { Array($0.values) }
        for continuation in current { continuation.yield(entry) }
    }

    /// A wake each time events have been committed since the last one was taken.
    func watchEvents() -> AsyncStream<Void> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        continuation.onTermination = { [weak self] _ in self?.eventWatchers.withLock { _ = $0.removeValue(forKey: id) } }
        eventWatchers.withLock { $0[id] = continuation }
        return stream
    }

    func eventsCommitted() {
        for watcher in eventWatchers.withLock({ Array($0.values) }) { watcher.yield() }
    }

    /// Ends every stream (shutdown).
    func finish() {
        let current = subscribers.withLock { values -> [AsyncStream<HistoryEntry>.Continuation] in
            defer { values.removeAll() }
            return Array(values.values)
        }
        for continuation in current { continuation.finish() }
        for watcher in eventWatchers.withLock({ values in defer { values.removeAll() }; return Array(values.values) }) { watcher.finish() }
    }

    var subscriberCount: Int { subscribers.withLock { $0.count } }
}
