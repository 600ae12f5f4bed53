import Logging
import ServiceLifecycle
import WaymarkPipeline
import WaymarkSources

/// Feeds the pipeline from gpsd until the daemon shuts down. Reconnection and backoff live in
/// `GpsdSource`; this service only forwards what it reports.
struct GpsdFeedService: Service {
    let source: GpsdSource
    let pipeline: LivePipeline

    func run() async throws {
        source.start()
        await withGracefulShutdownHandler {
            // A burst arrives in batches: one pipeline turn and one hand-over to the store each.
            for await batch in source.events {
                await pipeline.handle(batch.map(SourceEvent.init))
            }
        } onGracefulShutdown: {
            source.stop()
        }
    }
}

extension SourceEvent {
    init(_ event: GpsdEvent) {
        switch event {
        case .connected(let host, let port): self = .connected("gpsd \(host):\(port)")
        case .fix(let fix): self = .fix(fix)
        case .gap(let time, let reason): self = .gap(time: time, reason: reason)
        case .disconnected(let reason): self = .disconnected(reason)
        case .receiver(let path, let attached): self = .accessory(attached ? .receiverAttached : .receiverRemoved, device: path)
        }
    }
}
