import Testing
import WaymarkCore
import WaymarkDaemon
import WaymarkPipeline
import WaymarkRegions

/// `regions.crossing_gap` in the daemon's configuration (docs/semantics.md §3.3).
@Suite struct CrossingGapConfigurationTests {
    private let defaults = DaemonConfiguration(database: "w.sqlite", socketPath: "api.sock")

    @Test func theDefaultIsFiveMinutesAndTheKeySetsIt() throws {
        #expect(defaults.regionConfiguration.maximumCrossingGap == 300)
        let configuration = try DaemonConfiguration.parse(yaml: "regions:\n  crossing_gap: 90\n", file: "w.yaml", over: defaults)
        #expect(configuration.regionConfiguration.maximumCrossingGap == 90)
        #expect(configuration.regionConfiguration.sparseInterval == RegionMonitor.Configuration().sparseInterval)
    }

    /// The other pipeline settings come from the same file (docs/configuration.md, "Pipeline settings").
    @Test func theRegionActivityAndTheSilenceRuleAreReadToo() throws {
        let configuration = try DaemonConfiguration.parse(
            yaml: "regions:\n  activity: fitness\nsilence:\n  threshold: 600\n  radius: 40\n", file: "w.yaml", over: defaults)
        #expect(configuration.pipeline.regionActivity == .fitness)
        #expect(configuration.pipeline.silence == SilenceRule(threshold: 600, radius: 40))
        #expect(defaults.pipeline == .standard)
        #expect {
            try DaemonConfiguration.parse(yaml: "silence:\n  treshold: 600\n", file: "w.yaml", over: defaults)
        } throws: { error in
            "\(error)".hasPrefix("w.yaml:2:3: silence.treshold: unknown key")
        }
    }

    @Test func aNegativeGapIsRefusedAtItsPlace() {
        #expect {
            try DaemonConfiguration.parse(yaml: "regions:\n  crossing_gap: -5\n", file: "w.yaml", over: defaults)
        } throws: { error in
            "\(error)".hasPrefix("w.yaml:2:") && "\(error)".contains("regions.crossing_gap")
        }
    }
}
