import WaymarkBeacons
import WaymarkRegions

/// The monitors for one version of the regions, built once and copied into every device's
/// pipeline: a copy shares the index and the per-region options (copy-on-write), so a device
/// costs only the states it holds, not a rebuilt index (with 10,000 regions, building one took
/// milliseconds and megabytes per device; BENCHMARKS.md, devices over MQTT).
public struct RegionMonitors: Sendable {
    public let geographic: RegionMonitor
    public let beacons: BeaconMonitor
    /// The geographic regions ranked for the device's place (docs/semantics.md §3.7).
    public let places: PlaceRanking
    /// The rules the monitors were built with; every pipeline built from them runs these.
    public let settings: PipelineSettings

    public init(_ regions: [Region], settings: PipelineSettings = .standard) {
        self.settings = settings
        geographic = RegionMonitor(regions: regions.geographic, configuration: settings.regions)
        beacons = BeaconMonitor(regions: regions)
        places = PlaceRanking(index: geographic.index, regions: regions)
    }
}
