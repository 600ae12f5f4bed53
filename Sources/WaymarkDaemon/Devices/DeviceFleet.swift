import Logging
import WaymarkAPI
import WaymarkHandlers
import WaymarkCore
import WaymarkDevices
import WaymarkRegions
import WaymarkStore

/// The pipelines of the devices that feed Waymark over the network (docs/devices.md): one
/// `LivePipeline` per device, made when the device first sends something, with the device's
/// own saved region states, writing through the daemon's one store writer. They share the
/// regions and the handlers' registrations with the local receiver's pipeline (`adopt`,
/// `routeHandlers`: each pipeline routes to the handlers that want its device); power
/// accounting stays the local receiver's.
actor DeviceFleet {
    let store: WaymarkStore
    let writer: StoreWriter
    let feed: LiveFeed
    let clock: any WallClock
    let logger: Logger
    private var regions: [Region]
    private var pipelines: [String: LivePipeline] = [:]
    /// Devices that have been sent the current regions (OwnTracks' `setWaypoints`).
    private var regionsSent: Set<String> = []
    private var handlers: (registrations: [HandlerRegistration], supervisor: HandlerSupervisor)?
    /// Refused requests per device (`-` when none was named) and reason.
    private(set) var refusals: [String: [String: Int]] = [:]

    init(store: WaymarkStore, writer: StoreWriter, regions: [Region], feed: LiveFeed, clock: any WallClock, logger: Logger) {
        self.store = store
        self.writer = writer
        self.regions = regions
        self.feed = feed
        self.clock = clock
        self.logger = logger
    }

    /// The device's pipeline, made on first use.
    func pipeline(for device: String) async throws -> LivePipeline {
        if let pipeline = pipelines[device] { return pipeline }
        let saved = try await store.offPool { try $0.regionStates(device: device) }
        // Another request may have made it while this one read the states.
        if let pipeline = pipelines[device] { return pipeline }
        let pipeline = LivePipeline(
            deviceName: device, store: store, writer: writer, regions: regions, savedStates: saved, sourceKind: .network,
            sourceDescription: "network", feed: feed, clock: clock, logger: logger)
        pipelines[device] = pipeline
        if let handlers { await pipeline.routeHandlers(handlers.registrations, supervisor: handlers.supervisor) }
        logger.info("Device pipeline started", metadata: ["device": "\(device)"])
        return pipeline
    }

    /// New regions for every device's pipeline; every device is sent them again.
    func adopt(_ regions: [Region]) async {
        self.regions = regions
        regionsSent = []
        for pipeline in pipelines.values { await pipeline.adopt(regions) }
    }

    /// Routes every device's events to the handlers that want them, from now on.
    func routeHandlers(_ registrations: [HandlerRegistration], supervisor: HandlerSupervisor) async {
        handlers = (registrations, supervisor)
        for pipeline in pipelines.values { await pipeline.routeHandlers(registrations, supervisor: supervisor) }
    }

    /// The regions to send the device, once per version of the regions.
    func regionsToSend(to device: String) -> [Region]? {
        guard regionsSent.insert(device).inserted else { return nil }
        return regions
    }

    /// Each device's activity since start, by name; refusals before authentication under `-`.
    func activity() -> [DeviceActivity] {
        var activities: [String: DeviceActivity] = [:]
        for (name, pipeline) in pipelines {
            let snapshot = pipeline.snapshot()
            activities[name] = DeviceActivity(device: name, lastFix: snapshot.lastFix, counters: snapshot.counters)
        }
        for (name, reasons) in refusals { activities[name, default: DeviceActivity(device: name)].refused = reasons }
        return activities.values.sorted { $0.device < $1.device }
    }

    func countRefusal(_ reason: String, device: String?) {
        refusals[device ?? "-", default: [:]][reason, default: 0] += 1
    }
}
