import WaymarkAPI
import WaymarkCore
import WaymarkPower
import WaymarkStore

// Power (docs/semantics.md §4): whether the source is watched, power-aware sampling, and the
// energy ledger on the daemon's clock.
extension LivePipeline {
    /// Whether anything needs fixes now: recording, monitored regions, a subscription, or a live
    /// subscriber. When nothing does, the source is told to stop (gpsd: WATCH_DISABLE) so the
    /// receiver can idle.
    private var needsFixes: Bool {
        recordFixes || device.regionMonitor.index.count > 0 || !configured.isEmpty || !router.isEmpty || liveSubscribers > 0
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

    func updateWatching() {
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
        defer { publishStatus() }
        watchingChanged?(needed)
        accountWatching()
        let daemonNeedsGNSS = recordFixes || !configured.isEmpty || liveSubscribers > 0
            || (device.regionMonitor.index.count > 0 && !router.monitorsRegions)
        let attribution = RadioAttribution(
            gnssHandlers: router.gnssHandlers, daemonNeedsGNSS: daemonNeedsGNSS, bluetoothHandlers: router.bluetoothHandlers)
        account { try $0.attribute(attribution, at: $1) }
    }

    /// Whether something needs every fix, so the GNSS may not sleep: recording, a live-stream
    /// client, or standard updates (configured or a handler's).
    private var needsContinuousFixes: Bool {
        recordFixes || liveSubscribers > 0 || configured.contains { $0.services.standard != nil }
            || router.serviceSubscriptions.contains { $0.standard != nil }
    }

    /// Whether power-aware sampling applies now: asked for, on gpsd, and nothing needs every fix.
    var samples: Bool { sampler.settings.aware && source.kind == .gpsd && !needsContinuousFixes }

    /// After a fix the engine has seen: stop watching until the schedule's wake time (less a
    /// hot start), unless a crossing is pending or a boundary is near.
    func considerSleeping(after fix: Fix) {
        guard samples else { return }
        let services = configured.map(\.services) + router.serviceSubscriptions
        guard let resume = sampler.sleep(after: fix, monitor: device.regionMonitor, subscriptions: services, now: clock.now) else { return }
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
    func accountWatching() {
        account { [on = source.watching && source.connected] in try $0.watching(on, at: $1) }
    }

    func account(_ change: (inout LiveEnergy, Timestamp) throws -> Void) {
        do {
            try change(&energy, clock.now)
        } catch {
            logger.error("Energy ledger refused a change", metadata: ["error": "\(error)"])
        }
    }

    /// Adds what the ledger accounted up to now to the store (hourly, on request, at shutdown).
    ///
    /// The write (an fsync, `addEnergy`) runs on the store's own queue, not on the actor: what it
    /// writes is taken out of the ledger first, so accounting carries on meanwhile and a flush
    /// that overlaps it takes only what came after. On a store failure the taken buckets wait
    /// with the network's for the next flush, which adds them (the store sums equal buckets).
    func flushEnergy() async {
        var next = energy
        unstoredEnergy += network?.take() ?? []
        let buckets: [EnergyBucket]
        do {
            buckets = try next.take(at: clock.now) + unstoredEnergy
        } catch {
            logger.error("Cannot store the energy ledger", metadata: ["error": "\(error)"])
            count("storeErrors")
            return
        }
        energy = next
        unstoredEnergy = []
        do {
            try await store.offPool { try $0.addEnergy(buckets) }
            publishStatus()
        } catch {
            unstoredEnergy = buckets + unstoredEnergy
            logger.error("Cannot store the energy ledger", metadata: ["error": "\(error)"])
            count("storeErrors")
        }
    }

    /// Shutdown: no more sleeping, and everything accounted stored.
    func finishPower() async {
        sleeper?.cancel()
        sleeper = nil
        await flushEnergy()
    }

    /// What the radios and the sampler are doing now.
    var powerStatus: DaemonStatus.Power {
        Self.powerStatus(energy: energy, sampler: sampler, samples: samples, sourceKind: source.kind, network: network, at: clock.now)
    }

    /// What the radios and the sampler are doing, for status.
    static func powerStatus(
        energy: LiveEnergy, sampler: GNSSSampler, samples: Bool, sourceKind: DaemonStatus.Source.Kind, network: NetworkMeter?,
        at now: Timestamp
    ) -> DaemonStatus.Power {
        let joules = energy.joulesSinceStart(at: now)
        var status = DaemonStatus.Power(
            gnssProfile: sampler.settings.gnssProfile.name,
            gnssState: sourceKind == .gpsd ? energy.receiver.state.rawValue : nil,
            sampler: sampler.sleepingUntil != nil ? .sleeping : samples ? .tracking : .continuous,
            sleepingUntil: sampler.sleepingUntil,
            bluetoothProfile: sampler.settings.bluetoothProfile.name,
            gnssJoules: joules[.gnss], bluetoothJoules: joules[.bluetooth])
        if let network {
            let radio = network.now()
            status.network = DaemonStatus.Power.Network(
                radio: network.radio?.rawValue, profile: network.profileName, state: radio.state, joules: radio.joules,
                bytes: network.bytes.values.reduce(0, +))
        }
        return status
    }
}
