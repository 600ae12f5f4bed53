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
        /// Seconds spent building the index.
        public var buildSeconds: Double
        /// Bytes held by the index's buffers.
        public var indexBytes: Int

        public var fixesPerSecond: Double { Double(fixes) / seconds }
        public var bytesPerRegion: Double
    }

    /// Builds an index over `regions` and runs a monitor over `fixes` in order, timing both.
    public static func run(regions: [Region], fixes: [Fix]) -> Result {
        let clock = ContinuousClock()
        let buildStart = clock.now
        let index = RegionIndex(regions: regions)
        let buildTime = clock.now - buildStart
        var monitor = RegionMonitor(index: index)
        var memberships = 0
        var transitions = 0
        let start = clock.now
        for fix in fixes {
            if case .transitions(let t) = monitor.process(fix) { transitions += t.count }
            memberships += monitor.inside.count
        }
        let elapsed = clock.now - start
        return Result(
            fixes: fixes.count, memberships: memberships, transitions: transitions, seconds: seconds(elapsed),
            buildSeconds: seconds(buildTime), indexBytes: index.memoryFootprint,
            bytesPerRegion: regions.isEmpty ? 0 : Double(index.memoryFootprint) / Double(regions.count))
    }

    private static func seconds(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }
}
