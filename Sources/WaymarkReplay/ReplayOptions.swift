import WaymarkPipeline
import WaymarkPower
import WaymarkServices
import WaymarkSources

/// What `waymark replay` was asked to do.
public struct ReplayOptions: Sendable {
    /// The track to replay (GPX, NMEA 0183 or a gpsd JSON log); nil to replay beacon
    /// advertisements alone.
    public var trackPath: String?
    /// The track's format; nil: told by its content (``TrackFormat/detect(path:)``).
    public var trackFormat: TrackFormat?
    /// A beacon replay file (JSON Lines, docs/beacons.md), played beside the track, merged by time.
    public var beaconPath: String?
    /// Report ranging records (each visible beacon about once a second) besides beacon transitions.
    public var ranging = false
    /// GeoJSON files or folders of regions. When empty, the regions already in `databasePath`.
    public var regionPaths: [String]
    /// The feature property that names a region (`--id-property`); see `GeoJSONRegionLoader`.
    public var idProperty: String?
    /// Name features that have no identifier `FILE#INDEX` instead of rejecting them.
    public var numberUnnamedFeatures: Bool = false
    /// The SpatiaLite database the regions are imported into; a private temporary one when nil.
    public var databasePath: String?
    public var pacing: Pacing
    /// The region engine's rules and the gate's options (`--config`, `--crossing-gap`,
    /// `--region-activity`): the daemon's keys (docs/configuration.md, "Pipeline settings").
    public var settings = PipelineSettings.standard
    /// Location services to run besides region monitoring.
    public var services = ServiceSubscription()
    /// Account GNSS time and energy on the track's timeline (continuous tracking).
    public var energy = false
    /// Let the GNSS sleep until a boundary could be crossed (docs/semantics.md §4); implies `energy`.
    public var powerAware = false
    /// The GNSS power profile; nil: the built-in u-blox M8 profile.
    public var powerProfile: PowerProfile?

    public init(
        trackPath: String?, regionPaths: [String] = [], idProperty: String? = nil,
        databasePath: String? = nil, pacing: Pacing = .asFastAsPossible
    ) {
        self.trackPath = trackPath
        self.regionPaths = regionPaths
        self.idProperty = idProperty
        self.databasePath = databasePath
        self.pacing = pacing
    }
}

/// How fast a replay runs against the wall clock.
public enum Pacing: Sendable, Equatable {
    /// No waiting between fixes.
    case asFastAsPossible
    /// The track's own timing divided by the factor (1 = real time, 10 = ten times faster).
    case scaled(by: Double)
}
