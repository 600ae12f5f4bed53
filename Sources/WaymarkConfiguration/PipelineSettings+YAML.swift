import WaymarkPipeline
import Yams

/// The configuration keys of `PipelineSettings` (docs/configuration.md, "Pipeline settings"): the
/// same keys in the daemon's file, a fleet node's `--config` and the `--config` of `replay`,
/// `export` and `bench`.
///
/// ```yaml
/// regions:
///   crossing_gap: 120      # seconds ≥ 0 (default 300)
///   activity: automotive   # the region gate's speed bound (default other)
/// silence:
///   threshold: 600         # seconds > 0 between fixes beyond which there was a silence (default 300)
///   radius: 50             # metres > 0 within which a fix after a silence is a stay (default 100)
/// ```
extension ConfigurationReader {
    /// Reads `key` of `section` into `settings` if it is a pipeline key; false if it is not one.
    public func pipelineSetting(
        _ key: Node.Scalar, _ value: Node, in section: String, into settings: inout PipelineSettings
    ) throws(ConfigurationError) -> Bool {
        switch (section, key.string) {
        case ("regions", "crossing_gap"): settings.crossingGap = try number(value, key: "regions.crossing_gap", in: 0...)
        case ("regions", "activity"): settings.regionActivity = try activity(value, key: "regions.activity")
        case ("silence", "threshold"): settings.silence.threshold = try positive(value, key: "silence.threshold")
        case ("silence", "radius"): settings.silence.radius = try positive(value, key: "silence.radius")
        default: return false
        }
        return true
    }
}

extension PipelineSettings {
    /// The pipeline keys of each section.
    public static let configurationKeys = ["regions": ["crossing_gap", "activity"], "silence": ["threshold", "radius"]]
    /// The daemon's own keys in the same sections, which `load` passes over.
    static let daemonKeys = ["regions": ["paths", "id_property"]]

    /// Reads the pipeline keys of a configuration file (the daemon's own file will do: its
    /// other sections are passed over, they are `waymark serve`'s to check) over `defaults`. A
    /// key in a pipeline section that is neither a pipeline key nor the daemon's (a typo), or a
    /// bad value, is a located `ConfigurationError`.
    public static func load(yamlFile path: String, over defaults: PipelineSettings = .standard) throws(ConfigurationError)
        -> PipelineSettings
    {
        try parse(yaml: try ConfigurationReader.text(ofFile: path), file: path, over: defaults)
    }

    /// `load` on text; `file` names it in errors.
    public static func parse(yaml text: String, file: String, over defaults: PipelineSettings = .standard) throws(ConfigurationError)
        -> PipelineSettings
    {
        var settings = defaults
        guard let root = try ConfigurationReader.compose(yaml: text, file: file) else { return settings }
        let reader = ConfigurationReader(file: file)
        for (name, section) in try reader.mapping(root, key: nil) {
            guard let keys = configurationKeys[name.string] else { continue }
            let daemon = daemonKeys[name.string] ?? []
            for (key, value) in try reader.mapping(section, key: name.string) {
                if try reader.pipelineSetting(key, value, in: name.string, into: &settings) || daemon.contains(key.string) { continue }
                throw reader.unknown(key, in: name.string, known: daemon + keys)
            }
        }
        return settings
    }
}
