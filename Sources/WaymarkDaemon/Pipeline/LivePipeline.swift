import Foundation
import Logging
import WaymarkAPI
import WaymarkBeacons
import WaymarkCore
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
    let feed: LiveFeed
    let logger: Logger
    /// Regions, beacons, configured subscriptions and handlers: the one pipeline every caller runs.
    var device: DevicePipeline
    /// The configured subscriptions (docs/configuration.md), in configuration order.
    let configured: [ConfiguredSubscription]
    var beaconSource: DaemonStatus.BeaconSource?
    var source: SourceStatus
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
        store: WaymarkStore, regions: [Region], savedStates: [SavedRegionState] = [], sourceKind: DaemonStatus.Source.Kind, sourceDescription: String,
        feed: LiveFeed, subscriptions: [ConfiguredSubscription] = [], recordFixes: Bool = true,
        power: PowerSettings = PowerSettings(), clock: any WallClock = SystemWallClock(), logger: Logger
    ) {
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
            regions: regions, savedStates: savedStates,
            subscribers: subscriptions.map { Subscriber(id: .subscription($0.name), services: $0.services) })
        self.recordFixes = recordFixes
        self.store = store
        self.feed = feed
        self.logger = logger
        self.source = SourceStatus(kind: sourceKind, description: sourceDescription)
        self.board = LiveStatusBoard(.init(source: source, energy: energy, sampler: sampler))
    }

    /// Handles one event from the source. Storage failures are logged and counted; the
    /// pipeline carries on with the next input.
    func handle(_ event: SourceEvent) {
        defer { publishStatus() }
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
            run(.gap(time: clock.now, reason: "source disconnected: \(reason)"))
        case .gap(let time, let reason):
            account { try $0.noFix(at: $1) }
            run(.gap(time: time ?? clock.now, reason: reason))
        case .fix(let received):
            account { try $0.fix(at: $1) }
            var fix = received
            // A receiver without a clock (GGA-only NMEA) gives fixes without time: stamp them on arrival.
            if fix.time == nil { fix.time = clock.now }
            // History is the raw record (gpsd's repeated and out-of-order times included), but a
            // position that is not on Earth cannot be stored: kept out, and counted.
            guard fix.coordinate.isValid else { return drop(.invalidCoordinate) }
            // Power-aware sampling decides on fixes the region engine saw (not a repeated one).
            if run(.fix(fix)).regionDrop == nil { considerSleeping(after: fix) }
        case .advertisement(let advertisement):
            count(DaemonStatus.Counter.advertisementsReceived)
            beaconSource?.advertisements += 1
            run(.advertisement(advertisement))
        case .tick(let time):
            run(.tick(time))
        }
    }

    /// One input through the device pipeline, and everything it produced written and announced.
    @discardableResult
    private func run(_ input: PipelineInput) -> DevicePipeline.Step {
        let step = device.handle(input)
        if let reason = step.regionDrop { drop(reason) }
        for event in step.events {
            if case .state(_, let inside) = event { logger.info("Region state established", metadata: ["inside": "\(inside)"]) }
        }
        // The fix first, then what it caused (history and the live stream keep that order).
        if case .fix(let fix) = input, let entry = record(fix) { feed.publish(entry) }
        persist(step.events)
        save(step.states, at: input.time ?? clock.now)
        return step
    }

    /// Records a fix; its history entry, or nil when the store refused it.
    private func record(_ fix: Fix) -> HistoryEntry? {
        do {
            let id = try store.recordFix(fix, source: source.description)
            count(DaemonStatus.Counter.fixesRecorded)
            let entry = HistoryEntry(.fix(StoredFix(id: id, fix: fix, source: source.description)))
            board.recordedFix(entry)
            return entry
        } catch {
            logger.error("Cannot record a fix", metadata: ["error": "\(error)"])
            count("storeErrors")
            return nil
        }
    }

    /// Writes the events (history rows for those the daemon records, handler queues for those
    /// handlers are given), then streams them and tells the supervisor. Nobody hears of an event
    /// before it is in the store.
    private func persist(_ events: [LocationEvent]) {
        var deliveries: [HandlerRouter.Delivery] = []
        for event in events {
            switch event {
            case .gap(let time, let reason):
                recordGap(time: time, reason: reason)
            case .region, .beacon, .service(_, .subscription):
                if let entry = recordEvent(event) { feed.publish(entry) }
            default:
                break
            }
            deliveries += router.deliveries(for: event)
        }
        deliver(deliveries)
    }

    /// Queues handler events durably (one transaction), then tells the supervisor.
    private func deliver(_ deliveries: [HandlerRouter.Delivery]) {
        guard !deliveries.isEmpty, let supervisor else { return }
        do {
            _ = try store.enqueueHandlerEvents(
                deliveries.map { ($0.handler, $0.time, $0.kind, $0.record) }, at: clock.now)
        } catch {
            logger.error("Cannot queue handler events", metadata: ["error": "\(error)"])
            return count("storeErrors")
        }
        count(DaemonStatus.Counter.handlerEventsQueued, by: deliveries.count)
        var newest: [String: String] = [:]
        for delivery in deliveries { newest[delivery.handler] = delivery.kind }
        Task {
            for (handler, reason) in newest.sorted(by: { $0.key < $1.key }) {
                await supervisor.eventsQueued(for: handler, reason: reason)
            }
        }
    }

    /// Routes events to these handlers from now on; `supervisor` launches them.
    func routeHandlers(_ registrations: [HandlerRegistration], supervisor: HandlerSupervisor) {
        self.supervisor = supervisor
        router = HandlerRouter(registrations)
        device.replaceSubscribers(subscribers)
        updateWatching()
        publishStatus()
    }

    /// The device pipeline's subscribers: configured subscriptions, then handlers.
    private var subscribers: [Subscriber] {
        configured.map { Subscriber(id: .subscription($0.name), services: $0.services) } + router.subscribers
    }

    private func save(_ states: [SavedRegionState], at time: Timestamp) {
        guard !states.isEmpty else { return }
        do {
            try store.saveRegionStates(states, at: time)
        } catch {
            logger.error("Cannot save region states", metadata: ["error": "\(error)"])
            count("storeErrors")
        }
    }

    /// Stores an event and counts it; its history entry for the live stream.
    private func recordEvent(_ event: LocationEvent) -> HistoryEntry? {
        guard let stored = StoredEvent(event) else { return nil }
        do {
            try store.recordEvent(stored)
        } catch {
            logger.error("Cannot record an event", metadata: ["error": "\(error)", "kind": "\(stored.kind)", "region.id": "\(stored.region ?? "-")"])
            count("storeErrors")
        }
        count(DaemonStatus.Counter.eventsRecorded)
        switch event {
        case .region, .beacon:
            logger.info(
                "\(event.kind == .beacon ? "Beacon region" : "Region") \(stored.transition ?? "")",
                metadata: ["region.id": "\(stored.region ?? "")", "time": "\(stored.time.rfc3339)"])
        default:
            logger.debug("Location service record", metadata: ["kind": "\(stored.kind)", "time": "\(stored.time.rfc3339)"])
        }
        return HistoryEntry(kind: "event", time: stored.time, coordinate: stored.coordinate, json: stored.record)
    }

    /// Releases what subscriptions still hold (deferred batches): at the end of a replayed
    /// track and at shutdown. Fixes that come later start new batches.
    func finishSubscriptions() {
        persist(device.finish())
    }

    private func recordGap(time: Timestamp, reason: String) {
        do {
            try store.recordGap(time: time, reason: reason, source: source.description)
        } catch {
            logger.error("Cannot record a gap", metadata: ["error": "\(error)"])
            count("storeErrors")
        }
        count(DaemonStatus.Counter.gapsRecorded)
        var json = JSONObjectWriter()
        json.add("kind", "gap")
        json.add("time", time.rfc3339)
        json.add("reason", reason)
        json.add("source", source.description)
        feed.publish(HistoryEntry(kind: "gap", time: time, coordinate: nil, json: json.object))
    }

    func count(_ name: String, by amount: Int = 1) { board.count(name, by: amount) }

    /// A fix kept from the engine (and, for a bad position, from the store), in total and by reason.
    private func drop(_ reason: DropReason) {
        count(DaemonStatus.Counter.fixesDropped)
        count(DaemonStatus.Counter.fixesDropped + "." + reason.rawValue)
    }
}

extension PipelineInput {
    /// The input's own time, when it has one.
    var time: Timestamp? {
        switch self {
        case .fix(let fix): fix.time
        case .gap(let time, _), .tick(let time): time
        case .advertisement(let advertisement): advertisement.time
        }
    }
}
