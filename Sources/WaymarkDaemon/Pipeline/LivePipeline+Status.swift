import WaymarkAPI
import WaymarkPipeline

extension LivePipeline {
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
        publishStatus()
    }

    /// Frames the beacon source ignored, by reason (its decoder's running totals).
    func beaconSourceIgnored(_ ignored: [String: Int]) {
        beaconSource?.ignored = ignored
        publishStatus()
    }

    /// Puts what this actor owns on the board, for readers that must not wait for it.
    func publishStatus() {
        let (source, subscriptions, beaconSource, regionCount) = (source, subscriptionStatus, beaconSource, device.regionCount)
        let (energy, sampler, samples) = (energy, sampler, samples)
        board.publish {
            $0.source = source
            $0.subscriptions = subscriptions
            $0.beaconSource = beaconSource
            $0.regionCount = regionCount
            $0.energy = energy
            $0.sampler = sampler
            $0.samples = samples
        }
    }

    /// Each configured subscription's services, gate counts and records by kind.
    var subscriptionStatus: [SubscriptionStatus] {
        configured.map { subscription in
            let services = subscription.services
            var names: [String] = []
            if services.standard != nil { names.append("standard") }
            if services.significantChange != nil { names.append("significantChange") }
            if services.visits != nil { names.append("visits") }
            if services.timeline != nil { names.append("timeline") }
            let statistics = device.statistics(of: .subscription(subscription.name))
            return SubscriptionStatus(
                name: subscription.name, services: names, precision: services.authorization.precision.rawValue,
                accepted: statistics?.accepted ?? 0,
                dropped: Dictionary(uniqueKeysWithValues: (statistics?.dropped ?? [:]).map { ($0.key.rawValue, $0.value) }),
                events: Dictionary(uniqueKeysWithValues: (statistics?.emitted ?? [:]).map { ($0.key.rawValue, $0.value) }))
        }
    }

    /// The latest published status, priced (power) at the daemon's clock now; never waits for the actor.
    nonisolated func snapshot() -> (
        source: SourceStatus, counters: [String: Int], lastFix: HistoryEntry?, subscriptions: [SubscriptionStatus],
        beaconSource: DaemonStatus.BeaconSource?, power: DaemonStatus.Power, regionCount: Int
    ) {
        let board = board.snapshot
        let power = Self.powerStatus(
            energy: board.energy, sampler: board.sampler, samples: board.samples, sourceKind: board.source.kind, network: network,
            at: clock.now)
        return (board.source, board.counters, board.lastFix, board.subscriptions, board.beaconSource, power, board.regionCount)
    }
}
