import Logging
import ServiceLifecycle
import WaymarkCore
import WaymarkSources

/// Feeds the pipeline from a GPX track (`waymark serve --replay`), at the track's pace times a
/// factor or as fast as possible, so everything that works live can be tested by replay.
/// When the track ends the daemon serves on, or shuts down if `exitWhenDone`.
struct ReplayFeedService: Service {
    let settings: ReplaySettings
    let pipeline: LivePipeline
    /// The last fix this same track recorded before a restart: the replay resumes after it, so
    /// a daemon killed mid-replay and started again records each fix once.
    let resumeAfter: Timestamp?
    let logger: Logger

    func run() async throws {
        var source = try GPXFixSource(path: settings.trackPath)
        var pacer = settings.speed.map { ReplayPacer(clock: ContinuousClock(), factor: $0) }
        await pipeline.handle(.connected("replay \(settings.trackPath)"))
        if let resumeAfter { logger.notice("Resuming the replay after the last recorded fix", metadata: ["time": "\(resumeAfter.rfc3339)"]) }
        while let fix = try source.next() {
            if Task.isCancelled || Task.isShuttingDownGracefully { return }
            if let resumeAfter, let time = fix.time, time <= resumeAfter { continue }
            try await pacer?.wait(for: fix.time)
            await pipeline.handle(.fix(fix))
        }
        await pipeline.finishSubscriptions()
        logger.notice("Replay finished", metadata: ["track": "\(settings.trackPath)", "fixes": "\(source.pointCount)"])
        if settings.exitWhenDone { return }
        try? await gracefulShutdown()
    }
}
