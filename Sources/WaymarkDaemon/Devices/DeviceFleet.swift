import Logging
import Synchronization
import WaymarkAPI
import WaymarkHandlers
import WaymarkCore
import WaymarkDevices
import WaymarkPipeline
import WaymarkRegions
import WaymarkSteering
import WaymarkStore

/// The pipelines of the devices that feed Waymark over the network (docs/devices.md): one
/// `LivePipeline` per device, made when the device first sends something, with the device's
/// own saved region states, writing through the daemon's one store writer. They share the
/// regions and the handlers' registrations with the local receiver's pipeline (`adopt`,
/// `routeHandlers`: each pipeline routes to the handlers that want its device); power
/// accounting stays the local receiver's.
///
/// What every request asks — the device's pipeline once made, the commands its phone is owed
/// (its mode, its region window) — is answered without a hop onto this actor (each hop was a
/// thread hand-off per request, BENCHMARKS.md); making a pipeline, routing and counting happen
/// on it.
actor DeviceFleet {
    let store: WaymarkStore
    let writer: StoreWriter
    let feed: LiveFeed
    let clock: any WallClock
    let logger: Logger
    /// The pipelines made so far, by device.
    private let pipelines = Mutex<[String: LivePipeline]>([:])
    /// The regions and their monitors (built once, copied into each pipeline).
    private let regions: Mutex<(current: [Region], monitors: RegionMonitors)>
    /// What each device is told (its mode, its regions), and the regions as steering reads them.
    private let steering: Mutex<(regions: SteeringRegions, devices: [String: PhoneSteering])>
    private var handlers: (registrations: [HandlerRegistration], supervisor: HandlerSupervisor)?
    /// Refused requests per device (`-` when none was named) and reason.
    private(set) var refusals: [String: [String: Int]] = [:]

    /// The pipeline settings every device's monitors are built with.
    private let settings: PipelineSettings
    /// How phones are steered (`devices.power_policy`, `devices.region_window`).
    let steeringSettings: SteeringSettings

    init(
        store: WaymarkStore, writer: StoreWriter, regions: [Region], created: [String: Timestamp] = [:],
        settings: PipelineSettings = .standard, steering steeringSettings: SteeringSettings = SteeringSettings(),
        feed: LiveFeed, clock: any WallClock, logger: Logger
    ) {
        self.steeringSettings = steeringSettings
        self.store = store
        self.writer = writer
        self.settings = settings
        self.regions = Mutex((regions, RegionMonitors(regions, settings: settings)))
        self.steering = Mutex((SteeringRegions(regions: regions, created: created), [:]))
        self.feed = feed
        self.clock = clock
        self.logger = logger
    }

    /// The device's pipeline, made on first use.
    nonisolated func pipeline(for device: String) async throws -> LivePipeline {
        if let pipeline = pipelines.withLock({ $0[device] }) { return pipeline }
        return try await makePipeline(for: device)
    }

    private func makePipeline(for device: String) async throws -> LivePipeline {
        if let pipeline = pipelines.withLock({ $0[device] }) { return pipeline }
        let now = clock.now
        let (saved, marks) = try await store.offPool { try ($0.savedRegionStates(device: device), $0.savedMarks(device: device, now: now)) }
        // Another request may have made it while this one read the states.
        if let pipeline = pipelines.withLock({ $0[device] }) { return pipeline }
        let pipeline = LivePipeline(
            deviceName: device, store: store, writer: writer, regions: regions.withLock { $0.monitors }, savedStates: saved, savedMarks: marks,
            sourceKind: .network, sourceDescription: "network", feed: feed, clock: clock, logger: logger)
        pipelines.withLock { $0[device] = pipeline }
        if let handlers { await pipeline.routeHandlers(handlers.registrations, supervisor: handlers.supervisor) }
        logger.info("Device pipeline started", metadata: ["device": "\(device)"])
        return pipeline
    }

    /// New regions for every device's pipeline; every phone is sent a new window of them after
    /// its next report (`WindowSteering`), each waypoint's `tst` the region's import time.
    func adopt(_ regions: [Region]) async {
        let monitors = RegionMonitors(regions, settings: settings)
        let created: [String: Timestamp]
        do {
            created = try await store.offPool { try $0.regionImportTimes() }
        } catch {
            logger.error("Region import times not read; phones are sent their regions without them", metadata: ["error": "\(error)"])
            created = [:]
        }
        let steeringRegions = SteeringRegions(regions: regions, created: created)
        self.regions.withLock { $0 = (regions, monitors) }
        steering.withLock { $0.regions = steeringRegions }
        for pipeline in pipelines.withLock({ Array($0.values) }) { await pipeline.adopt(monitors) }
    }

    /// Routes every device's events to the handlers that want them, from now on.
    func routeHandlers(_ registrations: [HandlerRegistration], supervisor: HandlerSupervisor) async {
        handlers = (registrations, supervisor)
        for pipeline in pipelines.withLock({ Array($0.values) }) { await pipeline.routeHandlers(registrations, supervisor: supervisor) }
    }

    /// The commands for `device` after its latest report (`PhoneSteering`), each one JSON
    /// object; its steering state is made on first use.
    nonisolated func steer(_ device: String, after report: PhoneReport?) -> [String] {
        steering.withLock { state in
            var phone = state.devices[device] ?? PhoneSteering(device: device, settings: steeringSettings)
            defer { state.devices[device] = phone }
            return phone.commands(after: report, regions: state.regions)
        }
    }

    /// Each steered phone's mode (`ModeSteering`), by device.
    nonisolated func modes() -> [String: PhoneModeStatus] {
        steering.withLock { $0.devices.mapValues { PhoneModeStatus($0.mode.snapshot) } }
    }

    /// Each device's activity since start, by name; refusals before authentication under `-`.
    func activity() -> [DeviceActivity] {
        var activities: [String: DeviceActivity] = [:]
        for (name, pipeline) in pipelines.withLock({ $0 }) {
            let snapshot = pipeline.snapshot()
            activities[name] = DeviceActivity(device: name, lastFix: snapshot.lastFix, counters: snapshot.counters)
        }
        for (name, reasons) in refusals { activities[name, default: DeviceActivity(device: name)].refused = reasons }
        for (name, mode) in modes() { activities[name, default: DeviceActivity(device: name)].mode = mode }
        return activities.values.sorted { $0.device < $1.device }
    }

    func countRefusal(_ reason: String, device: String?) {
        refusals[device ?? "-", default: [:]][reason, default: 0] += 1
    }
}
