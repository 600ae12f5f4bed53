import WaymarkAPI
import WaymarkBeacons
import WaymarkPipeline
import WaymarkRegions

extension LivePipeline {
    /// Monitors `regions`, geographic and beacon, from now on. The monitors are built outside
    /// the actor (a large index takes a while, and fixes keep flowing meanwhile).
    nonisolated func adopt(_ regions: [Region]) async {
        await adopt(RegionMonitors(regions, settings: settings))
    }

    /// Monitors built by the caller, shared with other devices' pipelines.
    func adopt(_ monitors: RegionMonitors) async {
        await adopt(monitors.geographic, monitors.beacons, monitors.places)
    }

    /// States come from the store, which has every confirmed change (`DevicePipeline.replaceRegions`):
    /// read once everything already handed to the writer is committed, so none is missed.
    private func adopt(_ fresh: RegionMonitor, _ freshBeacons: BeaconMonitor, _ places: PlaceRanking) async {
        await writer.flush()
        var saved: SavedRegionStates = []
        do {
            saved = try await store.offPool { [deviceName] in try $0.savedRegionStates(device: deviceName) }
        } catch {
            logger.error("Cannot read saved region states; regions start unknown", metadata: ["error": "\(error)"])
        }
        device.replaceRegions(regionMonitor: fresh, beaconMonitor: freshBeacons, places: places, saved: saved)
        logger.notice(
            "Regions reloaded",
            metadata: ["regions": "\(device.regionMonitor.index.count)", "beaconRegions": "\(device.beaconMonitor.regions.count)"])
        updateWatching()
        publishStatus()
    }

    /// Inside, outside, or unknown (no fix, or for a beacon region no sighting or timeout, since
    /// the region was loaded); nil if not monitored.
    func regionState(identifier: String) -> RegionStateInfo? {
        device.regionState(identifier: identifier).map { RegionStateInfo(identifier: identifier, $0) }
    }

    var regionCount: Int { device.regionCount }
}

extension RegionStateInfo {
    init(identifier: String, _ state: RegionState) {
        switch state {
        case .unknown: self.init(identifier: identifier, state: "unknown", since: nil)
        case .inside(let since): self.init(identifier: identifier, state: "inside", since: since)
        case .outside(let since): self.init(identifier: identifier, state: "outside", since: since)
        }
    }
}
