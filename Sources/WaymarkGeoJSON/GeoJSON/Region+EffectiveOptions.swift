import WaymarkCore
import WaymarkRegions

extension Region {
    /// The options the region is monitored with, defaults filled in (docs/semantics.md §3.2), as
    /// the `options` member of `GET /v1/regions` summaries and `GET /v1/regions/{id}`:
    /// `enterDelay` and `exitDelay` (seconds; else `confirmationTime`, else the monitor's 20 s),
    /// `margin` (metres; else the smaller of 200 m and a fifth of the region's size),
    /// `maxAccuracy` (metres; null: no limit), `priority` (else 0), the notification flags,
    /// `loiteringDelay` (null: no dwell). Beacon regions have no geometry to delay, margin or
    /// gate on: theirs are the flags, `exitTimeout` (null: the beacon monitor's default) and `priority`.
    public func effectiveOptionsJSON(monitor configuration: RegionMonitor.Configuration = .init()) -> String {
        var w = JSONObjectWriter()
        w.add(RegionOptions.Key.notifyOnEntry, options.notifyOnEntry)
        w.add(RegionOptions.Key.notifyOnExit, options.notifyOnExit)
        w.add(RegionOptions.Key.initialTrigger, options.initialTrigger)
        w.add(RegionOptions.Key.loiteringDelay, options.loiteringDelay)
        if beacon != nil {
            w.add(RegionOptions.Key.exitTimeout, options.exitTimeout)
        } else {
            let hold = options.confirmationTime ?? configuration.confirmationTime
            w.add(RegionOptions.Key.enterDelay, options.enterDelay ?? hold)
            w.add(RegionOptions.Key.exitDelay, options.exitDelay ?? hold)
            w.add(RegionOptions.Key.margin, options.hysteresis ?? defaultMargin(configuration))
            w.add(RegionOptions.Key.maxAccuracy, options.maxAccuracy)
        }
        w.add(RegionOptions.Key.priority, options.priority ?? 0)
        return w.object
    }

    /// `geoJSONFeature` with the foreign member `options` (RFC 7946 §6.1): what
    /// `GET /v1/regions/{id}` answers. Posting it back ignores the member and stores the same region.
    public var geoJSONFeatureWithOptions: String {
        String(geoJSONFeature.dropLast()) + ",\"options\":" + effectiveOptionsJSON() + "}"
    }

    /// The monitor's margin for a region without one: a fraction of its characteristic size, capped.
    private func defaultMargin(_ configuration: RegionMonitor.Configuration) -> Double {
        let size: Double
        if case .circle(_, let radius) = shape {
            size = radius
        } else {
            size = RegionIndex(regions: [self]).characteristicSize(ofRegionAt: 0)
        }
        return min(configuration.maximumHysteresis, configuration.hysteresisFraction * size)
    }
}
