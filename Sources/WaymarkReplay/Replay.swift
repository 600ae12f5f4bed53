import Logging
import WaymarkBeacons
import WaymarkCore
import WaymarkGeoJSON
import WaymarkPower
import WaymarkRegions
import WaymarkServices
import WaymarkSources
import WaymarkStore

/// `waymark replay`: a GPX track through the same region engine the daemon uses, and/or beacon
/// advertisements through the beacon monitor, merged by time, printing JSON Lines records.
public enum Replay {
    /// Loads and stores the regions, then runs every fix of the track through the engine,
    /// writing records to `output` as they happen. Throws located errors for bad input before
    /// or during the replay; records already written stay written.
    @discardableResult
    public static func run<C: Clock<Duration>>(
        _ options: ReplayOptions, output: some TextSink, progress: ReplayProgress? = nil,
        logger: Logger, clock: C = ContinuousClock()
    ) async throws -> ReplaySummary {
        var output = output
        var progress = progress
        let subscription = options.services
        // Approximate authorization disables region monitoring (SEMANTICS §2, as on iOS).
        let monitorsRegions = subscription.authorization.allowsRegionMonitoring
        let regions = monitorsRegions ? try loadRegions(options, logger: logger) : []
        if !monitorsRegions && !options.regionPaths.isEmpty {
            logger.warning("approximate authorization: region monitoring is disabled, --regions ignored")
        }
        var services = subscription.isEmpty ? nil : SubscriptionPipeline(subscription)
        var timeline = try ReplayTimeline(trackPath: options.trackPath, beaconPath: options.beaconPath)
        let geographic = regions.filter(\.isGeographic)
        var beacons = options.beaconPath.map { _ in
            BeaconReplay(regions: monitorsRegions ? regions : [], ranging: options.ranging && monitorsRegions)
        }
        var engine = RegionMonitor(regions: geographic)
        var pacer: ReplayPacer<C>? = nil
        if case .scaled(let factor) = options.pacing { pacer = ReplayPacer(clock: clock, factor: factor) }
        var summary = ReplaySummary()
        summary.regions = geographic.count
        let profile = options.powerProfile ?? .ubloxM8USB
        var gnss = (options.energy || options.powerAware)
            ? GNSSDuty(
                profile: profile,
                schedule: options.powerAware
                    ? GNSSSchedule(activity: options.services.activity, subscriptions: [options.services], profile: profile) : nil)
            : nil
        if regions.isEmpty && subscription.isEmpty && monitorsRegions && !options.ranging {
            logger.warning("no regions to monitor: only the initial state and summary will be printed")
        }

        /// One fix the receiver saw through beacons' clock, the engine and the services; then,
        /// power-aware, whether it may sleep.
        func process(_ fix: Fix) throws {
            // Beacon time follows the track's, so exits fall due while it plays.
            if let time = fix.time { try beacons?.advance(to: time, output: &output) }
            let update = engine.process(fix)
            if let inside = update.establishedInside {
                try output.write(RegionRecords.state(fix: fix, inside: inside.map { geographic[Int($0)].identifier }) + "\n")
            }
            for transition in update.transitions where transition.notifies {
                summary.count(transition)
                try output.write(RegionRecords.transition(transition) + "\n")
            }
            if case .accepted(let records)? = services?.process(fix) {
                for record in records { try write(record, to: &output, summary: &summary) }
            }
            if let schedule = gnss?.schedule {
                gnss!.decide(after: fix, wake: schedule.wake(after: fix, monitor: engine))
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
            let fix: Fix
            switch event {
            case .advertisement(let advertisement):
                try beacons?.process(advertisement, to: &output)
                continue
            case .fix(let next):
                fix = next
            }
            summary.fixes += 1
            if fix.time == nil { summary.untimedFixes += 1 }
            // With a receiver model: its fixes every second up to this point, then this one.
            for receiverFix in gnss?.receiverFixes(before: fix) ?? [] { try receive(receiverFix) }
            try receive(fix)
            progress?.update(fixes: summary.fixes, time: fix.time)
        }
        if var beaconReplay = beacons {
            try beaconReplay.finish(output: &output)
            summary.beacons = beaconReplay.summary(timeline.beaconCounts)
        }
        if var pipeline = services {
            for record in pipeline.finish() { try write(record, to: &output, summary: &summary) }
            summary.reportServices(of: pipeline)
        }
        summary.power = gnss?.figures()
        if summary.untimedFixes > 0 {
            logger.warning(
                "\(summary.untimedFixes) of \(summary.fixes) points have no time: replayed without timing, and their records have \"time\":null",
                metadata: ["track": "\(options.trackPath ?? "")"])
        }
        try output.write(summary.record + "\n")
        try output.flush()
        return summary
    }

    private static func write(_ record: LocationRecord, to output: inout some TextSink, summary: inout ReplaySummary) throws {
        summary.events[record.kind, default: 0] += 1
        try output.write(record.json + "\n")
    }

    /// Reads the GeoJSON regions, imports them into the store (validating each polygon with
    /// SpatiaLite), and returns what the store holds, so the engine runs on exactly what was stored.
    static func loadRegions(_ options: ReplayOptions, logger: Logger) throws -> [Region] {
        let store = try options.databasePath.map { try WaymarkStore(path: $0, logger: logger) }
            ?? WaymarkStore.inMemory(logger: logger)
        return try RegionLoading.load(
            paths: options.regionPaths, idProperty: options.idProperty,
            numberUnnamedFeatures: options.numberUnnamedFeatures, into: store, logger: logger)
    }
}
