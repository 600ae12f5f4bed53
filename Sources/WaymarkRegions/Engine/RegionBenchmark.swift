#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WaymarkCore

/// Throughput of the membership engine on fixes in memory (`waymark bench regions`).
public enum RegionBenchmark {
    public struct Result: Sendable {
        /// Fixes processed.
        public var fixes: Int
        /// Sum over fixes of the number of regions containing the fix.
        public var memberships: Int
        /// Enter and exit transitions reported.
        public var transitions: Int
        /// Wall-clock seconds spent processing the fixes (building the index excluded).
        public var seconds: Double
        /// CPU seconds of the processing thread: what the run costs on one core, unaffected
        /// by other processes competing for the machine.
        public var cpuSeconds: Double
        /// Seconds spent building the index.
        public var buildSeconds: Double
        /// Bytes held by the index's buffers and the monitor's per-region state.
        public var indexBytes: Int

        /// CPU seconds of the same fixes through the index alone (membership, no state): the
        /// same-run baseline that shows what the state machine costs.
        public var queryOnlyCPUSeconds: Double

        /// Fixes per CPU second of one core.
        public var fixesPerSecond: Double { Double(fixes) / cpuSeconds }
        public var queryOnlyFixesPerSecond: Double { Double(fixes) / queryOnlyCPUSeconds }
        public var bytesPerRegion: Double
    }

    /// Builds an index over `regions` and runs a monitor with `configuration` over `fixes` in
    /// order, timing both.
    public static func run(regions: [Region], fixes: [Fix], configuration: RegionMonitor.Configuration = RegionMonitor.Configuration()) -> Result {
        let clock = ContinuousClock()
        let buildStart = clock.now
        let index = RegionIndex(regions: regions)
        var monitor = RegionMonitor(index: index, options: regions.map(\.options), configuration: configuration)
        let buildTime = clock.now - buildStart
        var transitions = 0
        let start = clock.now
        let cpuStart = threadCPUTime()
        for fix in fixes {
            transitions += monitor.process(fix).transitions.count
        }
        let elapsed = clock.now - start
        let cpu = threadCPUTime() - cpuStart
        var scratch: [Int32] = []
        var queried = 0
        let queryStart = threadCPUTime()
        for fix in fixes {
            index.containing(fix.coordinate, into: &scratch)
            queried += scratch.count
        }
        let queryCPU = threadCPUTime() - queryStart
        // Memberships from the index alone: the monitor takes no membership of an outlier it
        // holds against a rest (docs/semantics.md §3.3).
        return Result(
            fixes: fixes.count, memberships: queried, transitions: transitions, seconds: elapsed.inSeconds, cpuSeconds: cpu,
            buildSeconds: buildTime.inSeconds, indexBytes: index.memoryFootprint + monitor.memoryFootprint,
            queryOnlyCPUSeconds: queryCPU,
            bytesPerRegion: regions.isEmpty ? 0 : Double(index.memoryFootprint + monitor.memoryFootprint) / Double(regions.count))
    }

    /// CPU time of the calling thread, seconds.
    public static func threadCPUTime() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
