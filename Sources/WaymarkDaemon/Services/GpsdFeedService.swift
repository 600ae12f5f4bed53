import Logging
import ServiceLifecycle
import WaymarkSources

/// Feeds the pipeline from gpsd until the daemon shuts down. Reconnection and backoff live in
/// `GpsdSource`; this service only forwards what it reports.
struct GpsdFeedService: Service {
    let source: GpsdSource
    let pipeline: LivePipeline

    func run() async throws {
        source.start()
        await withGracefulShutdownHandler {
            for await event in source.events {
                await pipeline.handle(SourceEvent(event))
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
        }
    }
}
