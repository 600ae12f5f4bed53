import Foundation
import Logging
import WaymarkAPI
import WaymarkBeacons
import WaymarkCore
import WaymarkHandlers
import WaymarkPower
import WaymarkRegions
import WaymarkServices
import WaymarkStore

/// The daemon's single path for fixes and beacon advertisements, live or replayed: source event →
/// store → region engine, beacon monitor and each configured subscription's services → events
/// in the store → live subscribers. One actor, so events are handled strictly in order.
public actor LivePipeline {
    private let store: WaymarkStore
    private let feed: LiveFeed
    private let logger: Logger
    private var monitor: RegionMonitor
    /// Beacon regions (SEMANTICS §3), fed by the beacon source; its state is saved like the
    /// geographic one's.
    private var beaconMonitor: BeaconMonitor
    /// The last beacon time at which inside regions' last sightings were saved.
    private var beaconSightingsSaved: Timestamp?
    private var beaconSource: DaemonStatus.BeaconSource?
    private var source: SourceStatus
    private var counters: [String: Int] = [:]
    private var lastFix: HistoryEntry?
    /// The validation gate (SEMANTICS §2) in front of the region engine; drops are counted by reason.
    private var gate = ValidationGate()
    /// Configured location-service subscriptions (SEMANTICS §2), each behind its own gate.
    private var subscriptions: [RunningSubscription]
    /// Handlers' subscriptions, and who launches them for their events.
    private var router = HandlerRouter()
    private var supervisor: HandlerSupervisor?
    private let recordFixes: Bool
    private var liveSubscribers = 0
    private var watchingChanged: (@Sendable (Bool) -> Void)?
    /// The daemon's clock: the energy ledger's time and the sampler's waits.
    private let clock: any WallClock
    /// The radios' energy (SEMANTICS §4), flushed to the store by `flushEnergy`.
    private var energy: LiveEnergy
    /// Power-aware sampling: whether, and until when, the GNSS sleeps.
    private var sampler: GNSSSampler
    private var sleeper: Task<Void, Never>?

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
        self.subscriptions = subscriptions.map(RunningSubscription.init)
        self.recordFixes = recordFixes
        self.store = store
        self.feed = feed
        self.logger = logger
        self.monitor = RegionMonitor(regions: regions.filter(\.isGeographic))
        monitor.restore(savedStates)
        self.beaconMonitor = BeaconMonitor(regions: regions)
        beaconMonitor.restore(savedStates)
        self.source = SourceStatus(kind: sourceKind, description: sourceDescription)
    }

    /// Handles one event from the source. Storage failures are logged and counted; the
    /// pipeline carries on with the next fix.
    func handle(_ event: SourceEvent) {
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
            recordGap(time: Timestamp.now, reason: "source disconnected: \(reason)")
        case .gap(let time, let reason):
            account { try $0.noFix(at: $1) }
            recordGap(time: time ?? Timestamp.now, reason: reason)
        case .fix(let fix):
            handle(fix)
        case .advertisement(let advertisement):
            handle(advertisement)
        }
    }

    /// Every fix with a valid position is recorded, as the receiver reported it (history is the
    /// raw record: gpsd's repeated and out-of-order times included). The region engine, a
    /// service, sees only fixes the validation gate admits (time moving forward, no impossible
    /// jumps); the others are counted by reason in the status.
    private func handle(_ received: Fix) {
        account { try $0.fix(at: $1) }
        var fix = received
        // A receiver without a clock (GGA-only NMEA) gives fixes without time: stamp them on arrival.
        if fix.time == nil { fix.time = Timestamp.now }
        guard fix.coordinate.isValid else { return drop("invalidCoordinate") }
        let id: Int64
        do {
            id = try store.recordFix(fix, source: source.description)
        } catch {
            logger.error("Cannot record a fix", metadata: ["error": "\(error)"])
            return count("storeErrors")
        }
        count(DaemonStatus.Counter.fixesRecorded)
        let entry = HistoryEntry(.fix(StoredFix(id: id, fix: fix, source: source.description)))
        lastFix = entry
        feed.publish(entry)

        for index in subscriptions.indices {
            for record in subscriptions[index].process(fix) { self.record(record) }
        }
        var deliveries = router.isEmpty ? [] : router.deliveries(for: fix)
        defer { deliver(deliveries) }
        if let reason = gate.admit(fix) { return drop(reason.rawValue) }
        let update = monitor.process(fix)
        if let inside = update.establishedInside {
            logger.info("Region state established", metadata: ["inside": "\(inside.map { monitor.index.identifier(at: Int($0)) })"])
        }
        for transition in update.transitions where transition.notifies {
            let json = record(transition)
            if !router.isEmpty { deliveries += router.deliveries(for: transition, json: json) }
        }
        saveStates(after: update, time: fix.time!)
        considerSleeping(after: fix)
    }

    /// Queues handler events durably (one transaction), then tells the supervisor.
    private func deliver(_ deliveries: [HandlerRouter.Delivery]) {
        guard !deliveries.isEmpty, let supervisor else { return }
        do {
            _ = try store.enqueueHandlerEvents(
                deliveries.map { ($0.handler, $0.time, $0.kind, $0.record) }, at: Timestamp.now)
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
        router.update(registrations, beaconRegions: beaconMonitor.regions)
        updateWatching()
    }

    /// Persists what `update` changed (established states, confirmed crossings, dwells), so a
    /// restart resumes from it. Crossed regions stay outside: nothing to save.
    private func saveStates(after update: RegionUpdate, time: Timestamp) {
        var changed = update.established ?? []
        for transition in update.transitions where !transition.crossed { changed.append(transition.regionIndex) }
        guard !changed.isEmpty else { return }
        save(Set(changed).sorted().compactMap { monitor.savedState(ofRegionAt: Int($0)) }, at: time)
    }

    private func save(_ states: [SavedRegionState], at time: Timestamp) {
        do {
            try store.saveRegionStates(states, at: time)
        } catch {
            logger.error("Cannot save region states", metadata: ["error": "\(error)"])
            count("storeErrors")
        }
    }

    /// Stores an event, counts it and streams it live.
    private func record(event: StoredEvent) {
        do {
            try store.recordEvent(event)
        } catch {
            logger.error("Cannot record an event", metadata: ["error": "\(error)", "kind": "\(event.kind)", "region.id": "\(event.region ?? "-")"])
            count("storeErrors")
        }
        count(DaemonStatus.Counter.eventsRecorded)
        feed.publish(HistoryEntry(kind: "event", time: event.time, coordinate: event.coordinate, json: event.record))
    }

    /// Records a region transition; returns its JSON record (handlers get the same).
    @discardableResult
    private func record(_ transition: RegionTransition) -> String {
        let time = transition.fix.time!
        let json = RegionRecords.transition(transition)
        record(event: StoredEvent(
            time: time, kind: "region", region: transition.identifier, transition: transition.kind.rawValue,
            coordinate: transition.fix.coordinate, record: json))
        logger.info(
            "Region \(transition.kind.rawValue)",
            metadata: ["region.id": "\(transition.identifier)", "time": "\(time.rfc3339)"])
        return json
    }

    /// An advertisement through the beacon monitor: transitions recorded as `beacon` events,
    /// states saved at each change, and inside regions' last sightings at most every
    /// `sightingSaveInterval` of beacon time, so a restart neither loses an exit nor invents one.
    private func handle(_ advertisement: BeaconAdvertisement) {
        count(DaemonStatus.Counter.advertisementsReceived)
        beaconSource?.advertisements += 1
        if !router.isEmpty { deliver(router.deliveries(for: advertisement)) }
        record(beaconMonitor.process(advertisement), time: advertisement.time)
    }

    /// Lets beacon time pass without an advertisement (the live source's clock): exits fall due.
    func advanceBeacons(to time: Timestamp) {
        record(beaconMonitor.advance(to: time), time: time)
    }

    /// Seconds of beacon time between saves of inside regions' last sightings.
    static let sightingSaveInterval = 10.0

    private func record(_ update: BeaconUpdate, time: Timestamp) {
        var deliveries: [HandlerRouter.Delivery] = []
        for transition in update.transitions where transition.notifies {
            let json = record(transition)
            if !router.isEmpty { deliveries += router.deliveries(for: transition, json: json) }
        }
        deliver(deliveries)
        var changed = update.changedRegions
        if let saved = beaconSightingsSaved, time.seconds(since: saved) < Self.sightingSaveInterval {
            if changed.isEmpty { return }
        } else {
            beaconSightingsSaved = time
            changed += beaconMonitor.insideRegions
        }
        save(Set(changed).sorted().compactMap { beaconMonitor.savedState(ofRegionAt: Int($0)) }, at: time)
    }

    /// Records a beacon transition; returns its JSON record (handlers get the same).
    private func record(_ transition: BeaconTransition) -> String {
        let json = BeaconRecords.transition(transition)
        record(event: StoredEvent(
            time: transition.time, kind: "beacon", region: transition.identifier, transition: transition.kind.rawValue,
            record: json))
        logger.info(
            "Beacon region \(transition.kind.rawValue)",
            metadata: ["region.id": "\(transition.identifier)", "time": "\(transition.time.rfc3339)"])
        return json
    }

    /// The beacon source's status, as its service reports it; counts are kept here.
    func beaconSourceChanged(_ status: DaemonStatus.BeaconSource) {
        if status.kind == .bluetooth {
            let dutyCycle = status.scanInterval.flatMap { interval in status.scanWindow.map { $0 / interval } } ?? 1
            account { try $0.scanning(status.scanning ? dutyCycle : nil, at: $1) }
        }
        var next = status
        next.advertisements = beaconSource?.advertisements ?? 0
        next.ignored = beaconSource?.ignored ?? [:]
        beaconSource = next
    }

    /// Frames the beacon source ignored, by reason (its decoder's running totals).
    func beaconSourceIgnored(_ ignored: [String: Int]) {
        beaconSource?.ignored = ignored
    }

    private func record(_ record: LocationRecord) {
        self.record(event: StoredEvent(time: record.time, kind: record.kind, coordinate: record.coordinate, record: record.json))
        logger.debug("Location service record", metadata: ["kind": "\(record.kind)", "time": "\(record.time.rfc3339)"])
    }

    /// Releases what subscriptions still hold (deferred batches): at the end of a replayed
    /// track and at shutdown. Fixes that come later start new batches.
    func finishSubscriptions() {
        for index in subscriptions.indices {
            for record in subscriptions[index].finish() { self.record(record) }
        }
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

    private func count(_ name: String, by amount: Int = 1) { counters[name, default: 0] += amount }

    /// A fix kept from the engine (and, for a bad position, from the store), in total and by reason.
    private func drop(_ reason: String) {
        count(DaemonStatus.Counter.fixesDropped)
        count(DaemonStatus.Counter.fixesDropped + "." + reason)
    }

    /// Monitors `regions`, geographic and beacon, from now on. The engines are built outside the
    /// actor (a large index takes a while, and fixes keep flowing meanwhile).
    nonisolated func adopt(_ regions: [Region]) async {
        let geographic = RegionMonitor(regions: regions.filter(\.isGeographic))
        let beacons = BeaconMonitor(regions: regions)
        await adopt(geographic, beacons)
    }

    /// States come from the store, which has every confirmed change: regions whose geometry is
    /// unchanged carry on, new or reshaped ones start unknown and the next fix establishes them
    /// with no event (SEMANTICS §3). Beacon regions whose identity is unchanged carry their live
    /// state over (with the latest sighting, which the store has only to within 10 s).
    private func adopt(_ fresh: RegionMonitor, _ freshBeacons: BeaconMonitor) {
        var next = fresh
        var nextBeacons = freshBeacons
        let identities = Dictionary(freshBeacons.regions.map { ($0.identifier, $0.beacon) }, uniquingKeysWith: { a, _ in a })
        nextBeacons.restore(beaconMonitor.regions.indices.compactMap { index in
            let region = beaconMonitor.regions[index]
            guard identities[region.identifier] == region.beacon else { return nil }
            return beaconMonitor.savedState(ofRegionAt: index)
        })
        do {
            let saved = try store.regionStates()
            next.restore(saved)
            nextBeacons.restore(saved)
        } catch {
            logger.error("Cannot read saved region states; regions start unknown", metadata: ["error": "\(error)"])
        }
        monitor = next
        beaconMonitor = nextBeacons
        router.beaconRegionsChanged(beaconMonitor.regions)
        logger.notice(
            "Regions reloaded", metadata: ["regions": "\(monitor.index.count)", "beaconRegions": "\(beaconMonitor.regions.count)"])
        updateWatching()
    }

    /// Inside, outside, or unknown (no fix, or for a beacon region no sighting or timeout, since
    /// the region was loaded); nil if not monitored.
    func regionState(identifier: String) -> RegionStateInfo? {
        let index = monitor.index
        if let position = (0..<index.count).first(where: { index.identifier(at: $0) == identifier }) {
            return RegionStateInfo(identifier: identifier, monitor.state(ofRegionAt: position))
        }
        if let position = beaconMonitor.regions.firstIndex(where: { $0.identifier == identifier }) {
            return RegionStateInfo(identifier: identifier, beaconMonitor.state(ofRegionAt: position))
        }
        return nil
    }

    var regionCount: Int { monitor.index.count + beaconMonitor.regions.count }

    /// Whether anything needs fixes now: recording, monitored regions, a subscription, or a live
    /// subscriber. When nothing does, the source is told to stop (gpsd: WATCH_DISABLE) so the
    /// receiver can idle.
    private var needsFixes: Bool {
        recordFixes || monitor.index.count > 0 || !subscriptions.isEmpty || !router.isEmpty || liveSubscribers > 0
    }

    /// Registers who switches the source on and off, and tells it the current need.
    func onWatchingChanged(_ body: @escaping @Sendable (Bool) -> Void) {
        watchingChanged = body
        updateWatching()
    }

    func liveSubscribersChanged(_ count: Int) {
        liveSubscribers = count
        updateWatching()
    }

    private func updateWatching() {
        if !samples && sampler.cancel() {
            sleeper?.cancel()
            sleeper = nil
            logger.notice("GNSS wakes early: fixes are needed continuously")
        }
        let needed = needsFixes && sampler.sleepingUntil == nil
        if needed != source.watching {
            logger.notice(
                needed ? "Fixes needed: watching the source"
                    : sampler.sleepingUntil != nil ? "GNSS sleeps: the source is not watched until a boundary could be crossed"
                    : "No subscriber needs fixes: the source is not watched")
        }
        source.watching = needed
        watchingChanged?(needed)
        accountWatching()
        let daemonNeedsGNSS = recordFixes || !subscriptions.isEmpty || liveSubscribers > 0
            || (monitor.index.count > 0 && !router.monitorsRegions)
        let attribution = RadioAttribution(
            gnssHandlers: router.gnssHandlers, daemonNeedsGNSS: daemonNeedsGNSS, bluetoothHandlers: router.bluetoothHandlers)
        account { try $0.attribute(attribution, at: $1) }
    }

    // MARK: - Power (SEMANTICS §4)

    /// Whether something needs every fix, so the GNSS may not sleep: recording, a live-stream
    /// client, or standard updates (configured or a handler's).
    private var needsContinuousFixes: Bool {
        recordFixes || liveSubscribers > 0 || subscriptions.contains { $0.pipeline.subscription.standard != nil }
            || router.serviceSubscriptions.contains { $0.standard != nil }
    }

    /// Whether power-aware sampling applies now: asked for, on gpsd, and nothing needs every fix.
    private var samples: Bool { sampler.settings.aware && source.kind == .gpsd && !needsContinuousFixes }

    /// After a fix the engine has seen: stop watching until the schedule's wake time (less a
    /// hot start), unless a crossing is pending or a boundary is near.
    private func considerSleeping(after fix: Fix) {
        guard samples else { return }
        let services = subscriptions.map(\.pipeline.subscription) + router.serviceSubscriptions
        guard let resume = sampler.sleep(after: fix, monitor: monitor, subscriptions: services, now: clock.now) else { return }
        let generation = sampler.generation
        logger.info("GNSS sleeps until a boundary could be crossed", metadata: ["until": "\(resume.rfc3339)"])
        sleeper?.cancel()
        sleeper = Task { [clock] in
            do { try await clock.sleep(until: resume) } catch { return }
            self.wakeGNSS(generation: generation)
        }
        updateWatching()
    }

    private func wakeGNSS(generation: Int) {
        guard sampler.wake(generation: generation) else { return }
        sleeper = nil
        logger.info("GNSS wakes: watching the source again")
        updateWatching()
    }

    /// The receiver is on while gpsd is watched and reachable.
    private func accountWatching() {
        account { [on = source.watching && source.connected] in try $0.watching(on, at: $1) }
    }

    private func account(_ change: (inout LiveEnergy, Timestamp) throws -> Void) {
        do {
            try change(&energy, clock.now)
        } catch {
            logger.error("Energy ledger refused a change", metadata: ["error": "\(error)"])
        }
    }

    /// Adds what the ledger accounted up to now to the store (hourly, on request, at shutdown).
    /// On a store failure the ledger keeps it for the next flush.
    func flushEnergy() {
        var next = energy
        do {
            try store.addEnergy(try next.take(at: clock.now))
            energy = next
        } catch {
            logger.error("Cannot store the energy ledger", metadata: ["error": "\(error)"])
            count("storeErrors")
        }
    }

    /// Shutdown: no more sleeping, and everything accounted stored.
    func finishPower() {
        sleeper?.cancel()
        sleeper = nil
        flushEnergy()
    }

    /// What the radios and the sampler are doing, for status.
    var powerStatus: DaemonStatus.Power {
        let joules = energy.joulesSinceStart(at: clock.now)
        return DaemonStatus.Power(
            gnssProfile: sampler.settings.gnssProfile.name,
            gnssState: source.kind == .gpsd ? energy.receiver.state.rawValue : nil,
            sampler: sampler.sleepingUntil != nil ? .sleeping : samples ? .tracking : .continuous,
            sleepingUntil: sampler.sleepingUntil,
            bluetoothProfile: sampler.settings.bluetoothProfile.name,
            gnssJoules: joules[.gnss], bluetoothJoules: joules[.bluetooth])
    }

    func snapshot() -> (
        source: SourceStatus, counters: [String: Int], lastFix: HistoryEntry?, subscriptions: [SubscriptionStatus],
        beaconSource: DaemonStatus.BeaconSource?, power: DaemonStatus.Power
    ) {
        (source, counters, lastFix, subscriptions.map(\.status), beaconSource, powerStatus)
    }
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

extension Timestamp {
    /// The system clock's current time.
    static var now: Timestamp { Timestamp(secondsSince1970: Date().timeIntervalSince1970) }
}
