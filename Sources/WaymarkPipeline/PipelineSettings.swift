import WaymarkCore
import WaymarkRegions
import WaymarkServices

/// Everything that shapes a `DevicePipeline` run besides its regions and subscribers, built once
/// from the configuration (the YAML keys and flags of docs/configuration.md, "Pipeline settings")
/// and given to every caller that builds a pipeline — the daemon, every fleet worker,
/// `waymark replay`, `waymark export` and the benchmarks — so they cannot drift apart.
///
/// Pure: a value.
public struct PipelineSettings: Sendable, Equatable {
    /// The region engine's rules (`regions.crossing_gap`; docs/semantics.md §3.3).
    public var regions: RegionMonitor.Configuration
    /// Rules shared by every subscriber: the region gate's activity (`regions.activity`), the
    /// silence rule (`silence.*`) and the beacon sightings' save interval.
    public var options: DevicePipeline.Options

    public init(
        regions: RegionMonitor.Configuration = RegionMonitor.Configuration(), options: DevicePipeline.Options = DevicePipeline.Options()
    ) {
        self.regions = regions
        self.options = options
    }

    /// The built-in rules: what every caller ran before it was told otherwise.
    public static let standard = PipelineSettings()

    /// `regions.crossing_gap` / `--crossing-gap`: seconds of silence across which no crossing is
    /// inferred between sparse fixes.
    public var crossingGap: Double {
        get { regions.maximumCrossingGap }
        set { regions.maximumCrossingGap = newValue }
    }

    /// `silence.threshold`, `silence.radius` / `--silence-threshold`, `--silence-radius`: what a
    /// silence between fixes means (docs/semantics.md §2.6) to pauses and visits, and where
    /// `waymark export` splits a track into segments. (`regions.crossing_gap` is set apart: the
    /// region engine's own limit, 300 s like the threshold by default.)
    public var silence: SilenceRule {
        get { options.silence }
        set { options.silence = newValue }
    }

    /// `regions.activity` / `--region-activity`: the speed bound of the gate in front of the
    /// region engine (plausible jumps).
    public var regionActivity: ActivityType {
        get { options.regionActivity }
        set { options.regionActivity = newValue }
    }
}
