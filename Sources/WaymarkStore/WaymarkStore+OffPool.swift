import Dispatch
import Logging

extension WaymarkStore {
    /// Runs blocking store work (reads, imports, registrations) on a GCD queue of the store's
    /// own, never on Swift's cooperative thread pool, and resumes the caller with its result.
    /// The API's request handlers and other async callers go through this, so a slow query or
    /// a busy writer never starves the pool that serves sockets.
    public func offPool<T: Sendable>(_ body: @escaping @Sendable (WaymarkStore) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Self.blockingQueue.async { continuation.resume(with: Result { try body(self) }) }
        }
    }

    /// Runs blocking work that reads a store file of its own (an export over the history, a
    /// GPX file) on the same queue, for async callers holding no store.
    public static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            blockingQueue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Opens the store at `path` (which reads and may migrate the file) off the cooperative pool.
    public static func open(path: String, logger: Logger) async throws -> WaymarkStore {
        try await withCheckedThrowingContinuation { continuation in
            blockingQueue.async { continuation.resume(with: Result { try WaymarkStore(path: path, logger: logger) }) }
        }
    }

    /// Concurrent: reads run side by side (GRDB's pool has several readers); writes serialise
    /// on GRDB's writer.
    private static let blockingQueue = DispatchQueue(label: "org.waymark.store.blocking", attributes: .concurrent)
}
