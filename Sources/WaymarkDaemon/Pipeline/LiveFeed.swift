import Foundation
import Synchronization
import WaymarkAPI

/// Fans recorded fixes and events out to every live subscriber (the API's event stream).
/// A slow subscriber loses its oldest entries rather than holding the pipeline up.
final class LiveFeed: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<HistoryEntry>.Continuation]>([:])
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

    /// Ends every stream (shutdown).
    func finish() {
        let current = subscribers.withLock { values -> [AsyncStream<HistoryEntry>.Continuation] in
            defer { values.removeAll() }
            return Array(values.values)
        }
        for continuation in current { continuation.finish() }
    }

    var subscriberCount: Int { subscribers.withLock { $0.count } }
}
