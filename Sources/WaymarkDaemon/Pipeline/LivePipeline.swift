import Foundation
import Logging
import WaymarkAPI
import WaymarkBeacons
import WaymarkCore
import WaymarkDevices
import WaymarkHandlers
import WaymarkPipeline
import WaymarkPower
import WaymarkRegions
import WaymarkServices
import WaymarkStore

/// The daemon's shell around the device pipeline, for live and replayed input alike: a source
/// event becomes a `PipelineInput`, `DevicePipeline` turns it into typed events, and this actor
/// performs what follows — the fix, events, region states and handlers' queues written to the
/// store, then the live stream and the handler supervisor told. One actor, so a device's
/// inputs are handled strictly in order. Power (watching, sampling, the ledger) is in
/// `LivePipeline+Power.swift`, regions in `+Regions`, status in `+Status`.
public actor LivePipeline {
    let store: WaymarkStore
    /// The device whose fixes this pipeline handles (docs/devices.md): every row it writes is its.
    nonisolated let deviceName: String
    /// Every history write goes through it: group commits on its own thread.
    let writer: StoreWriter
    let feed: LiveFeed
    let logger: Logger
    /// Regions, beacons, configured subscriptions and handlers: the one pipeline every caller runs.
    var device: DevicePipeline
    /// The configured subscriptions (docs/configuration.md), in configuration order.
    let configured: [ConfiguredSubscription]
    var beaconSource: DaemonStatus.BeaconSource?
    var source: SourceStatus
    /// The pipeline settings, kept for the monitors built when regions change.
    nonisolated let settings: PipelineSettings
    /// Status, counters and the last fix, readable without waiting for this actor.
    nonisolated let board: LiveStatusBoard
    /// Handlers' subscriptions, and who launches them for their events.
    var router = HandlerRouter()
    var supervisor: HandlerSupervisor?
    let recordFixes: Bool
    var liveSubscribers = 0
    var watchingChanged: (@Sendable (Bool) -> Void)?
    /// The daemon's clock: arrival stamps, the energy ledger's time and the sampler's waits.
    let clock: any WallClock
    /// The radios' energy (docs/semantics.md §4), flushed to the store by `flushEnergy`.
    var energy: LiveEnergy
    /// The network radio's traffic, reported by outputs and the listener; taken with `energy`.
    let network: NetworkMeter?
    /// Energy buckets taken (the ledger's and the network meter's) but not yet stored: a store
    /// failure keeps them for the next flush.
    var unstoredEnergy: [EnergyBucket] = []
    /// Power-aware sampling: whether, and until when, the GNSS sleeps.
    var sampler: GNSSSampler
    var sleeper: Task<Void, Never>?

    /// What the source is doing, for status.
    struct SourceStatus: Sendable {
        var kind: DaemonStatus.Source.Kind
        var description: String
        var connected = false
        /// Whether the source is asked for fixes (gpsd: WATCH_ENABLE).
        var watching = true
        var lastError: String?
    }

    init(
        deviceName: String = Device.localName, store: WaymarkStore, writer: StoreWriter, regions: RegionMonitors,
        savedStates: SavedRegionStates = [], savedMarks: SavedServiceMarks? = nil, sourceKind: DaemonStatus.Source.Kind,
        sourceDescription: String,
        feed: LiveFeed, subscriptions: [ConfiguredSubscription] = [], recordFixes: Bool = true,
        power: PowerSettings = PowerSettings(), network: NetworkMeter? = nil, clock: any WallClock = SystemWallClock(),
        logger: Logger
    ) {
        self.network = network
        self.deviceName = deviceName
        self.settings = regions.settings
        self.clock = clock
        self.sampler = GNSSSampler(settings: power)
        // Only a receiver behind gpsd is accounted: a replayed track has no radio.
        var energy = LiveEnergy(profiles: [power.gnssProfile, power.bluetoothProfile], at: clock.now)
        if sourceKind == .gpsd {
            do { try energy.startGNSS(at: clock.now) } catch { logger.error("Energy ledger refused the GNSS", metadata: ["error": "\(error)"]) }
        }
        self.energy = energy
        self.configured = subscriptions
        self.device = DevicePipeline(
            monitors: regions, savedStates: savedStates, savedMarks: savedMarks,
            subscribers: subscriptions.map(\.subscriber))
        self.recordFixes = recordFixes
        self.store = store
        self.writer = writer
        self.feed = feed
        self.logger = logger
        self.source = SourceStatus(kind: sourceKind, description: sourceDescription)
        self.board = LiveStatusBoard(.init(source: source, energy: energy, sampler: sampler))
    }

    /// Handles one event from a source.
    func handle(_ event: SourceEvent) async {
        await handle([event])
    }

    /// Handles a source's events in order, then hands everything they produced to the store
    /// writer in two submissions (fixes and gaps; events, states and handlers' queues), so a
    /// burst costs a commit, not one per fix. Storage failures are logged and counted; the
    /// pipeline carries on.
    func handle(_ events: [SourceEvent]) async {
        var batch = WriteBatch()
        for event in events { handle(event, into: &batch) }
        await submit(batch)
        publishStatus()
    }

    /// `handle`, returning once what the events produced is committed (or has failed, which is
    /// logged and counted): for a source that answers its sender, whose 200 means recorded. The
    /// batch takes the writer's coalescing delay like any other, so concurrent senders share a
    /// commit; this actor is free for other work while the caller waits.
    func handleCommitted(_ events: [SourceEvent]) async {
        var batch = WriteBatch()
        for event in events { handle(event, into: &batch) }
        let (committed, done) = AsyncStream<Void>.makeStream()
        if batch.isEmpty { done.finish() }
        await submit(batch) { done.finish() }
        publishStatus()
        for await _ in committed {}
    }

    private func handle(_ event: SourceEvent, into batch: inout WriteBatch) {
        switch event {
        case .connected(let description):
            source.connected = true
            source.lastError = nil
            logger.notice("Source connected", metadata: ["source": "\(description)"])
            accountWatching()
        case .disconnected(let reason):
            if source.connected { logger.warning("Source disconnected", metadata: ["reason": "\(reason)"]) }
            source.connected = false
            source.lastError = reason
            accountWatching()
            apply(device.record(.gap(time: clock.now, reason: "source disconnected: \(reason)")), into: &batch)
        case .gap(let time, let reason):
            account { try $0.noFix(at: $1) }
            apply(device.record(gap: time ?? clock.now, reason: reason), into: &batch)
        case .fix(let fix):
            account { try $0.fix(at: $1) }
            // The rules around a live fix (stamping, invalid positions, the future, fix lost and
            // regained) are the pipeline's, the same in a fleet (`DevicePipeline.record`). Only a
            // device's fix over the network is judged against the moment it arrived.
            let recorded = device.record(fix: fix, arrival: Arrival(time: clock.now, judgesFuture: source.kind == .network))
            apply(recorded, into: &batch)
            // Power-aware sampling decides on fixes the region engine saw (not a repeated one).
            if let fix = recorded.fix, recorded.drop == nil { considerSleeping(after: fix) }
        case .advertisement(let advertisement):
            batch.count(DaemonStatus.Counter.advertisementsReceived)
            beaconSource?.advertisements += 1
            apply(device.record(.advertisement(advertisement)), into: &batch)
        case .tick(let time):
            apply(device.record(.tick(time)), into: &batch)
        case .reported(let event):
            // The device's word first, then what it was evidence of (a circle the phone watches
            // as it is: docs/devices.md, "The phone's transitions as evidence"). A disagreement
            // is judged after: a report Waymark took as evidence agrees by construction.
            batch.add(StoredEvent(event))
            apply(device.record(reported: event), into: &batch)
            if event.kind == .reportedRegion, let region = event.region, let transition = event.transition,
                device.disagrees(withReported: transition, of: region)
            {
                batch.count(DaemonStatus.Counter.reportedRegionDisagreements)
            }
        case .accessory(let change, let device):
            logger.notice("Accessory \(change.rawValue)", metadata: ["device": "\(device ?? "-")"])
            add([.accessory(AccessoryEvent(time: clock.now, change: change, device: device))], to: &batch)
        }
    }

    /// What one input produced, into `batch`: the fix first, then what it caused (history and
    /// the live stream keep that order), then the states and marks a restart resumes from.
    private func apply(_ step: RecordedStep, into batch: inout WriteBatch) {
        if let reason = step.drop { batch.drop(reason) }
        if let fix = step.fix { record(fix, into: &batch) }
        add(step.events, to: &batch)
        if let established = step.regionsEstablished { batch.save(established) }
        if !step.states.isEmpty { batch.save(step.states, at: step.time ?? clock.now) }
        for (subscriber, marks) in step.marks.sorted(by: { $0.key < $1.key }) { batch.save(marks, of: subscriber) }
    }

    /// The fix into the batch, unless the history would refuse it (a negative accuracy, say):
    /// then it is logged and counted, and the fixes around it are recorded as usual.
    private func record(_ fix: Fix, into batch: inout WriteBatch) {
        if let refusal = fix.historyRefusal {
            logger.error("Cannot record a fix", metadata: ["error": "\(refusal)", "time": "\(fix.time?.rfc3339 ?? "-")"])
            return batch.count("storeErrors")
        }
        batch.add(fix, source: source.description)
    }

    /// Events into the batch: history rows for those the daemon records, handler queues for
    /// those handlers are given.
    private func add(_ events: [LocationEvent], to batch: inout WriteBatch) {
        for event in events {
            if case .state(_, let inside) = event { logger.info("Region state established", metadata: ["inside": "\(inside)"]) }
            switch event.recording {
            case .gap(let time, let reason):
                batch.addGap(time: time, reason: reason, source: source.description)
            case .event(let record):
                let stored = StoredEvent(record)
                batch.add(stored)
                log(event, stored)
            case .none:
                break
            }
            if supervisor != nil {
                batch.deliver(
                    router.deliveries(for: event).map {
                        QueuedHandlerEvent.New(handler: $0.handler, time: $0.time, kind: $0.kind, record: $0.record)
                    }, at: clock.now)
            }
        }
    }

    private func log(_ event: LocationEvent, _ stored: StoredEvent) {
        switch event {
        case .region, .beacon:
            logger.info(
                "\(event.kind == .beacon ? "Beacon region" : "Region") \(stored.transition?.rawValue ?? "")",
                metadata: ["region.id": "\(stored.region ?? "")", "time": "\(stored.time.rfc3339)"])
        case .place:
            logger.info("Place changed", metadata: ["place": "\(stored.region ?? "-")", "time": "\(stored.time.rfc3339)"])
        default:
            logger.debug("Location service record", metadata: ["kind": "\(stored.kind.rawValue)", "time": "\(stored.time.rfc3339)"])
        }
    }

    /// Hands the batch to the store writer as one submission (`WriteBatch`). Only once it has
    /// committed are its entries counted, streamed live, and the supervisor told: nobody hears
    /// of anything the store does not have (docs/durability.md).
    private func submit(_ batch: WriteBatch, then: (@Sendable () -> Void)? = nil) async {
        board.count(batch.counts)
        guard !batch.isEmpty else { return }
        let writes = batch.writes
        let (queued, newest) = (batch.queuedCount, batch.newestReasons)
        let durability: Durability = batch.isDurable ? .durable : .recorded
        await writer.enqueue(writes, device: deviceName, durability: durability) { [board, feed, logger, supervisor, deviceName] result in
            defer { then?() }
            switch result {
            case .success(let ids):
                let committed = CommittedBatch(writes, ids: ids, device: deviceName, streaming: feed.subscriberCount > 0)
                if let lastFix = committed.lastFix { board.recordedFix(lastFix) }
                var counts = committed.counts
                counts[DaemonStatus.Counter.handlerEventsQueued] = queued
                board.count(counts)
                feed.publish(committed.entries)
                if (counts[DaemonStatus.Counter.eventsRecorded] ?? 0) > 0 { feed.committed(.events) }
                if committed.lastFix != nil { feed.committed(.fixes) }
                guard let supervisor, !newest.isEmpty else { return }
                supervisor.eventsQueued(newest.map { (handler: $0.0, reason: $0.1.rawValue) })
            case .failure(let error):
                logger.error("Cannot record a burst of fixes and events", metadata: ["error": "\(error)"])
                board.count("storeErrors")
            }
        }
    }

    /// Routes events to these handlers from now on; `supervisor` launches them.
    func routeHandlers(_ registrations: [HandlerRegistration], supervisor: HandlerSupervisor) {
        self.supervisor = supervisor
        router = HandlerRouter(registrations.filter { $0.subscription.wantsDevice(deviceName) })
        device.replaceSubscribers(subscribers)
        updateWatching()
        publishStatus()
    }

    /// The device pipeline's subscribers: configured subscriptions, then handlers.
    private var subscribers: [Subscriber] {
        configured.map(\.subscriber) + router.subscribers
    }

    /// Releases what subscriptions still hold (deferred batches): at the end of a replayed
    /// track and at shutdown, then waits until everything handed to the writer is committed.
    /// Fixes that come later start new batches.
    func finishSubscriptions() async {
        var batch = WriteBatch()
        add(device.finish(), to: &batch)
        await submit(batch)
        await writer.flush()
    }

    func count(_ name: String, by amount: Int = 1) { board.count(name, by: amount) }
}
