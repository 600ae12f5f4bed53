import Foundation
import Logging
import WaymarkAPI
import WaymarkCore
import WaymarkPipeline
import WaymarkRegions
import WaymarkServices
import WaymarkStore

/// `waymark bench ingest`: the daemon's own ingest path — `LivePipeline` (gate, region and
/// beacon monitors, subscriptions' services) feeding the group-committing `StoreWriter` on a
/// real SpatiaLite file — driven by a source in the same process (no gpsd, no sockets), in the
/// bursts `waymark serve --replay` uses.
///
/// The track is played lap after lap, each lap shifted later by the track's duration plus a
/// minute, so every fix is new to the gate and the services until `duration` has passed. The
/// figure counts what the store holds at the end (rows in `fixes` and `events`), after the
/// writer has committed everything: fixes recorded, not fixes handed over.
public enum IngestBenchmark {
    public struct Result: Sendable {
        /// Fixes handed to the pipeline.
        public var fixesSent: Int
        /// Rows in `fixes` at the end.
        public var fixesStored: Int
        /// Rows in `events` at the end (region transitions and the subscriptions' records).
        public var eventsStored: Int
        /// From the first fix handed over to the last commit.
        public var seconds: Double
        /// Laps of the track played.
        public var laps: Int
        /// The writer's commits and its largest group.
        public var commits: Int
        public var durableCommits: Int
        public var largestGroup: Int
        /// CPU seconds of the store writer's thread, and of the whole process, over the run.
        public var writerCPUSeconds: Double
        public var processCPUSeconds: Double

        public var fixesPerSecond: Double { Double(fixesStored) / seconds }
    }

    /// Two subscriptions, as the figure asks: one on standard updates with a distance
    /// filter and significant change, one on visits and significant change.
    public static let subscriptions = [
        ConfiguredSubscription(
            name: "bench-standard",
            services: ServiceSubscription(
                standard: .init(distanceFilter: 10), significantChange: SignificantChangeThresholds())),
        ConfiguredSubscription(
            name: "bench-visits",
            services: ServiceSubscription(significantChange: SignificantChangeThresholds(), visits: VisitThresholds())),
    ]

    /// Runs for at least `duration`, then waits for the writer to commit everything.
    ///
    /// - Parameters:
    ///   - fixes: one lap of timed fixes, in time order.
    ///   - database: a SpatiaLite file to create (it must not exist).
    ///   - burst: source events handed to the pipeline at once (the replay's 256).
    public static func run(
        fixes: [Fix], regions: [Region], subscriptions: [ConfiguredSubscription] = subscriptions, database: String,
        duration: Duration, burst: Int = 256, settings: PipelineSettings = .standard, logger: Logger
    ) async throws -> Result {
        guard let first = fixes.first?.time, let last = fixes.last?.time else {
            throw BenchmarkError("the track has no timed fixes")
        }
        let lapSeconds = last.seconds(since: first) + 60
        let store = try await WaymarkStore.open(path: database, logger: logger)
        let stored = try await store.offPool { try $0.importRegions(regions, replace: false); return try $0.regions() }
        let writer = StoreWriter(store: store, logger: logger)
        let pipeline = LivePipeline(
            store: store, writer: writer, regions: RegionMonitors(stored, settings: settings), sourceKind: .replay, sourceDescription: "bench",
            feed: LiveFeed(), subscriptions: subscriptions, logger: logger)

        let clock = ContinuousClock()
        let cpuAtStart = ThreadCPU.secondsByName().values.reduce(0, +)
        let start = clock.now
        var (sent, laps) = (0, 0)
        var events: [SourceEvent] = []
        events.reserveCapacity(burst)
        while clock.now - start < duration {
            let offset = Double(laps) * lapSeconds
            for var fix in fixes {
                fix.time = fix.time?.adding(seconds: offset)
                events.append(.fix(fix))
                if events.count == burst {
                    await pipeline.handle(events)
                    events.removeAll(keepingCapacity: true)
                }
            }
            sent += fixes.count
            laps += 1
        }
        if !events.isEmpty { await pipeline.handle(events) }
        await pipeline.finishSubscriptions()
        let seconds = (clock.now - start).inSeconds
        let cpu = ThreadCPU.secondsByName()
        await writer.shutdown()

        let statistics = writer.statistics
        let counts = try await store.offPool { try $0.historyCounts() }
        return Result(
            fixesSent: sent, fixesStored: counts.fixes, eventsStored: counts.events, seconds: seconds, laps: laps,
            commits: statistics.commits, durableCommits: statistics.durableCommits, largestGroup: statistics.largestGroup,
            writerCPUSeconds: cpu["waymark-writer"] ?? 0, processCPUSeconds: cpu.values.reduce(0, +) - cpuAtStart)
    }
}

extension IngestBenchmark {
    /// The baseline in the same run: the path the daemon took before the store writer, one
    /// transaction per fix (`WaymarkStore.recordFix`, `synchronous=NORMAL`) on a fresh file, with
    /// no pipeline at all — for `duration` on a dedicated thread; returns fixes stored per second.
    public static func perFixCommitBaseline(fixes: [Fix], database: String, duration: Duration, logger: Logger) async throws -> Double {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Swift.Result {
                    let store = try WaymarkStore(path: database, logger: logger)
                    let clock = ContinuousClock()
                    let start = clock.now
                    var stored = 0
                    let lapSeconds = (fixes.last?.time?.seconds(since: fixes.first?.time ?? Timestamp(nanosecondsSince1970: 0)) ?? 0) + 60
                    var laps = 0
                    while clock.now - start < duration {
                        for var fix in fixes {
                            fix.time = fix.time?.adding(seconds: Double(laps) * lapSeconds)
                            _ = try store.recordFix(fix, source: "baseline")
                            stored += 1
                        }
                        laps += 1
                    }
                    return Double(stored) / (clock.now - start).inSeconds
                })
            }.start()
        }
    }
}

/// A benchmark that cannot run on its input.
public struct BenchmarkError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
