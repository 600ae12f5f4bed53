import Logging
import ServiceLifecycle
import WaymarkCore
import WaymarkStore

/// Deletes history older than the retention period, at start and then hourly.
struct RetentionService: Service {
    let store: WaymarkStore
    let days: Double
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            let cutoff = Timestamp.now.adding(seconds: -days * 86_400)
            do {
                // Batched deletes that may take a while: on the store's queue, not the cooperative pool.
                let deleted = try await store.offPool { try $0.pruneHistory(before: cutoff) }
                if deleted > 0 { logger.info("Pruned history", metadata: ["rows": "\(deleted)", "before": "\(cutoff.rfc3339)"]) }
            } catch {
                logger.error("Cannot prune history", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(3600)) }
        }
    }
}
