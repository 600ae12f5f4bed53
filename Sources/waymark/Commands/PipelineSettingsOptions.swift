import ArgumentParser
import WaymarkConfiguration
import WaymarkPipeline
import WaymarkServices

/// The flags of `PipelineSettings`, the same in every command that runs the device pipeline
/// (`serve`, `replay`, `export`, `stats`, `bench`); each wins over its key in the configuration
/// file (docs/configuration.md, "Pipeline settings").
struct PipelineFlags: ParsableArguments {
    @Option(
        name: .customLong("crossing-gap"),
        help: "Infer region crossings between sparse fixes at most this many seconds apart (regions.crossing_gap; default 300; docs/semantics.md §3.3).")
    var crossingGap: Double?

    @Option(
        name: .customLong("region-activity"),
        help: "fitness, automotive, other or airborne: the speed bound of the gate before the region engine (regions.activity; default other).")
    var regionActivity: String?

    @Option(
        name: .customLong("silence-threshold"),
        help: "Seconds between fixes beyond which there was a silence, for pauses, visits and export's segments (silence.threshold; default 300; docs/semantics.md §2.6).")
    var silenceThreshold: Double?

    @Option(
        name: .customLong("silence-radius"),
        help: "Metres within which a fix after a silence is a stay, not a gap (silence.radius; default 100).")
    var silenceRadius: Double?

    func validate() throws {
        if let crossingGap, !(crossingGap.isFinite && crossingGap >= 0) {
            throw ValidationError("--crossing-gap must be a number of seconds, 0 or more, got \(crossingGap)")
        }
        for (name, value) in [("--silence-threshold", silenceThreshold), ("--silence-radius", silenceRadius)] {
            if let value, !(value.isFinite && value > 0) { throw ValidationError("\(name) must be a positive number, got \(value)") }
        }
        if let regionActivity, ActivityType(rawValue: regionActivity) == nil {
            throw ValidationError("--region-activity must be fitness, automotive, other or airborne, got '\(regionActivity)'")
        }
    }

    /// `settings` with what the flags say.
    func applied(to settings: PipelineSettings) -> PipelineSettings {
        var settings = settings
        if let crossingGap { settings.crossingGap = crossingGap }
        if let activity = regionActivity.flatMap(ActivityType.init(rawValue:)) { settings.regionActivity = activity }
        if let silenceThreshold { settings.silence.threshold = silenceThreshold }
        if let silenceRadius { settings.silence.radius = silenceRadius }
        return settings
    }
}

/// `--config FILE` and the pipeline flags, for commands that have no configuration of their own:
/// the pipeline keys of the file (the daemon's file will do), then the flags.
struct PipelineSettingsOptions: ParsableArguments {
    @Option(help: "A configuration file (the daemon's will do): its pipeline keys apply (regions.crossing_gap, regions.activity; docs/configuration.md); flags win.")
    var config: String?

    @OptionGroup var flags: PipelineFlags

    func settings() throws -> PipelineSettings {
        flags.applied(to: try config.map { try PipelineSettings.load(yamlFile: $0) } ?? .standard)
    }
}
