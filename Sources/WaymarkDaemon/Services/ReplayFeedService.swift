import Logging
import ServiceLifecycle
import WaymarkAPI
import WaymarkCore
import WaymarkPipeline
import WaymarkSources

/// Feeds the pipeline from a track (`waymark serve --replay`: GPX, NMEA 0183 or gpsd JSON) and/or a beacon replay file
/// (`--beacons`), merged by time, at the recording's pace times a factor or as fast as possible,
/// so everything that works live can be tested by replay. When both end the daemon serves on,
/// or shuts down if `exitWhenDone`.
struct ReplayFeedService: Service {
    let settings: ReplaySettings
    let pipeline: LivePipeline
    /// The last fix this same track recorded before a restart: the replay resumes after it, so
    /// a daemon killed mid-replay and started again records each fix once.
    let resumeAfter: Timestamp?
    let logger: Logger

    func run() async throws {
        var timeline = try ReplayTimeline(
            trackPath: settings.trackPath, trackFormat: settings.trackFormat, beaconPath: settings.beaconPath)
        var pacer = settings.speed.map { ReplayPacer(clock: ContinuousClock(), factor: $0) }
        if let track = settings.trackPath { await pipeline.handle(.connected("replay \(track)")) }
        if let beacons = settings.beaconPath {
            await pipeline.beaconSourceChanged(.init(kind: .replay, description: "replay:\(beacons)", scanning: true))
        }
        if let resumeAfter { logger.notice("Resuming the replay after the last recorded fix", metadata: ["time": "\(resumeAfter.rfc3339)"]) }
        // As fast as possible, events go to the pipeline in bursts (one group commit each);
        // paced, one at a time, when they are due.
        var burst: [SourceEvent] = []
        let burstSize = pacer == nil ? 256 : 1
        while let event = try timeline.next() {
            if Task.isCancelled || Task.isShuttingDownGracefully { return }
            if case .fix(let fix) = event, let resumeAfter, let time = fix.time, time <= resumeAfter { continue }
            try await pacer?.wait(for: event.time)
            switch event {
            case .fix(let fix): burst.append(.fix(fix))
            case .advertisement(let advertisement): burst.append(.advertisement(advertisement))
            }
            if burst.count >= burstSize {
                await pipeline.handle(burst)
                burst.removeAll(keepingCapacity: true)
            }
        }
        if !burst.isEmpty { await pipeline.handle(burst) }
        await pipeline.finishSubscriptions()
        if let beacons = settings.beaconPath {
            await pipeline.beaconSourceIgnored(timeline.beaconCounts.rejected)
            await pipeline.beaconSourceChanged(.init(kind: .replay, description: "replay:\(beacons)", scanning: false))
        }
        logger.notice(
            "Replay finished",
            metadata: [
                "track": "\(settings.trackPath ?? "-")", "fixes": "\(timeline.track?.pointCount ?? 0)",
                "beacons": "\(settings.beaconPath ?? "-")", "advertisements": "\(timeline.beaconCounts.accepted)",
            ])
        if settings.exitWhenDone { return }
        try? await gracefulShutdown()
    }
}
