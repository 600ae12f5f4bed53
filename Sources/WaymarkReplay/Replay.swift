import Logging
import WaymarkBeacons
import WaymarkCore
import WaymarkGeoJSON
import WaymarkPipeline
import WaymarkPower
import WaymarkRegions
import WaymarkServices
import WaymarkSources
import WaymarkStore

/// `waymark replay`: a GPX track and/or beacon advertisements, merged by time, through the
/// device pipeline the daemon runs (`DevicePipeline`), printing its events as JSON Lines.
public enum Replay {
    /// The replay's own subscriber: the services its flags ask for, and ranging.
    static let subscriber = SubscriberID.subscription("replay")

    /// Loads and stores the regions, then runs every fix of the track through the pipeline,
    /// writing records to `output` as they happen. Throws located errors for bad input before
    /// or during the replay; records already written stay written.
    @discardableResult
    public static func run<C: Clock<Duration>>(
        _ options: ReplayOptions, output: some TextSink, progress: ReplayProgress? = nil,
        logger: Logger, clock: C = ContinuousClock()
    ) async throws -> ReplaySummary {
        var output = output
        var progress = progress
        let services = options.services
        // Approximate authorization disables region monitoring (docs/semantics.md §2, as on iOS).
        let monitorsRegions = services.authorization.allowsRegionMonitoring
        let regions = monitorsRegions ? try loadRegions(options, logger: logger) : []
        WaymarkStore.releaseFreedMemory()  // the store is closed: its heap, before the index is built
        if !monitorsRegions && !options.regionPaths.isEmpty {
            logger.warning("approximate authorization: region monitoring is disabled, --regions ignored")
        }
        var timeline = try ReplayTimeline(trackPath: options.trackPath, trackFormat: options.trackFormat, beaconPath: options.beaconPath)
        let ranges = options.beaconPath != nil && options.ranging && monitorsRegions
        var pipeline = DevicePipeline(
            regions: options.beaconPath == nil ? regions.geographic : regions,
            subscribers: [Subscriber(id: subscriber, services: services, ranging: ranges ? .monitoredRegions : nil)],
            settings: options.settings)
        var pacer: ReplayPacer<C>? = nil
        if case .scaled(let factor) = options.pacing { pacer = ReplayPacer(clock: clock, factor: factor) }
        var summary = ReplaySummary()
        summary.regions = pipeline.regionMonitor.index.count
        var beacons = options.beaconPath.map { _ in BeaconTally(ranging: ranges) }
        let profile = options.powerProfile ?? .ubloxM8USB
        var gnss = (options.energy || options.powerAware)
            ? GNSSDuty(
                profile: profile,
                schedule: options.powerAware
                    ? GNSSSchedule(activity: services.activity, subscriptions: [services], profile: profile) : nil)
            : nil
        if regions.isEmpty && services.isEmpty && monitorsRegions && !options.ranging {
            logger.warning("no regions to monitor: only the initial state and summary will be printed")
        }

        func write(_ events: [LocationEvent]) throws {
            for event in events {
                summary.count(event)
                beacons?.count(event)
                try output.write(event.record + "\n")
            }
        }

        /// One fix the receiver saw through the pipeline; then, power-aware, whether it may sleep.
        func process(_ fix: Fix) throws {
            try write(pipeline.handle(.fix(fix)).events)
            if let schedule = gnss?.schedule {
                gnss!.motion.take(fix)
                gnss!.decide(after: fix, wake: schedule.wake(after: fix, monitor: pipeline.regionMonitor, motion: gnss!.motion))
            }
        }

        /// A fix the receiver produced: power-aware, its own fixes at each wake first, and this
        /// one only if it is not asleep.
        func receive(_ fix: Fix) throws {
            while let wakeFix = gnss?.wakeFix(before: fix) { try process(wakeFix) }
            if gnss?.sees(fix) != false { try process(fix) }
        }

        while let event = try timeline.next() {
            try await pacer?.wait(for: event.time)
            switch event {
            case .advertisement(let advertisement):
                try write(pipeline.handle(.advertisement(advertisement)).events)
            case .fix(let fix):
                summary.fixes += 1
                if fix.time == nil { summary.untimedFixes += 1 }
                // With a receiver model: its fixes every second up to this point, then this one.
                for receiverFix in gnss?.receiverFixes(before: fix) ?? [] { try receive(receiverFix) }
                try receive(fix)
                progress?.update(fixes: summary.fixes, time: fix.time)
            }
        }
        try write(pipeline.finish())
        summary.beacons = beacons?.summary(timeline.beaconCounts, monitor: pipeline.beaconMonitor)
        if let statistics = pipeline.statistics(of: subscriber), !services.isEmpty { summary.reportServices(statistics) }
        summary.power = gnss?.figures()
        warnAboutRegionGate(pipeline.regionGate, logger: logger)
        if summary.untimedFixes > 0 {
            logger.warning(
                "\(summary.untimedFixes) of \(summary.fixes) points have no time: replayed without timing, and their records have \"time\":null",
                metadata: ["track": "\(options.trackPath ?? "")"])
        }
        try output.write(summary.record + "\n")
        try output.flush()
        return summary
    }

    /// Says how many fixes the region gate kept from the region engine, and why.
    private static func warnAboutRegionGate(_ gate: ValidationGate, logger: Logger) {
        let dropped = gate.dropped.filter { $0.value > 0 }
        guard !dropped.isEmpty else { return }
        let reasons = dropped.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        logger.warning(
            "\(dropped.values.reduce(0, +)) fixes were kept from the region engine by the validation gate: \(reasons.joined(separator: ", "))")
    }

    /// Reads the GeoJSON regions, imports them into the store (validating each polygon with
    /// SpatiaLite), and returns what the store holds, so the engine runs on exactly what was stored.
    static func loadRegions(_ options: ReplayOptions, logger: Logger) throws -> [Region] {
        try RegionLoading.load(
            paths: options.regionPaths, idProperty: options.idProperty,
            numberUnnamedFeatures: options.numberUnnamedFeatures,
            into: {
                try options.databasePath.map { try WaymarkStore(path: $0, logger: logger) }
                    ?? WaymarkStore.temporary(logger: logger)
            }, logger: logger)
    }
}
