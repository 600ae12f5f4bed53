import Dispatch
import Logging
import Synchronization
import WaymarkPlaces

/// The offline geocoder's index for `GET /v1/timeline`: read on the first request, on a queue
/// of its own (reading and indexing the place-data file blocks), then kept for the daemon's
/// life. Without place data — none installed, or a file that cannot be read — the answer is
/// nil, said once in the log, and timelines name places by the user's regions alone, in UTC.
public final class PlaceIndexLoader: Sendable {
    private let read: @Sendable () throws -> PlaceIndex?
    private let logger: Logger
    private let loading = Mutex<Task<PlaceIndex?, Never>?>(nil)

    /// `read`: the blocking read of the place data (nil when none is installed).
    public init(logger: Logger, read: @escaping @Sendable () throws -> PlaceIndex?) {
        self.read = read
        self.logger = logger
    }

    /// A loader that never has place data (tests, a fleet).
    public static func none(logger: Logger) -> PlaceIndexLoader { PlaceIndexLoader(logger: logger) { nil } }

    /// The index, read once; every caller waits for the same read.
    public func index() async -> PlaceIndex? {
        let task = loading.withLock { task in
            if let task { return task }
            let started = Task { await self.load() }
            task = started
            return started
        }
        return await task.value
    }

    private func load() async -> PlaceIndex? {
        let read = read
        let result = await withCheckedContinuation { continuation in
            Self.queue.async { continuation.resume(returning: Result { try read() }) }
        }
        switch result {
        case .success(let index?):
            logger.info("place data loaded for timelines")
            return index
        case .success(nil):
            logger.notice("no place data installed: timelines name places by your regions only, in UTC (docs/timeline/web.md)")
        case .failure(let error):
            logger.error("place data unreadable: timelines name places by your regions only, in UTC", metadata: ["error": "\(error)"])
        }
        return nil
    }

    private static let queue = DispatchQueue(label: "org.waymark.places.load")
}
