import WaymarkBeacons
import WaymarkRegions
import WaymarkServices

extension DevicePipeline {
    /// Monitors new regions from now on. `regionMonitor` and `beaconMonitor` are built by the
    /// caller (a large index takes a while); states come from `saved` (the store, which has every
    /// confirmed change): regions whose geometry is unchanged carry on, new or reshaped ones
    /// start unknown and the next fix establishes them with no event. Beacon regions whose
    /// identity is unchanged carry their live state over (with the latest sighting, which the
    /// store has only to within the sighting save interval). The place stays what it was until
    /// the next admitted fix derives it from the new regions (a `place` event if it changed).
    /// Without `places`, every region has priority 0.
    public mutating func replaceRegions(
        regionMonitor fresh: RegionMonitor, beaconMonitor freshBeacons: BeaconMonitor, places: PlaceRanking? = nil, saved: SavedRegionStates
    ) {
        var nextBeacons = freshBeacons
        let identities = Dictionary(freshBeacons.regions.map { ($0.identifier, $0.beacon) }, uniquingKeysWith: { a, _ in a })
        nextBeacons.restore(beaconMonitor.regions.indices.compactMap { index in
            let region = beaconMonitor.regions[index]
            guard identities[region.identifier] == region.beacon else { return nil }
            return beaconMonitor.savedState(ofRegionAt: index)
        })
        var next = fresh
        next.restore(saved)
        nextBeacons.restore(saved.states)
        regionMonitor = next
        beaconMonitor = nextBeacons
        self.places = places ?? PlaceRanking(index: next.index)
        placeStale = true
        for index in subscribers.indices { subscribers[index].beaconRegionsChanged(beaconMonitor.regions) }
    }

    /// Runs these subscribers from now on. One whose definition did not change keeps its running
    /// state (gate, services, batches, ranger); new or changed ones start fresh, or — before the
    /// first input — from the marks an earlier run saved for them.
    public mutating func replaceSubscribers(_ fresh: [Subscriber]) {
        subscribers = fresh.map { subscriber in
            subscribers.first { $0.subscriber == subscriber }
                ?? RunningSubscriber(subscriber, beaconRegions: beaconMonitor.regions, resume: resume, silence: options.silence)
        }
    }

    /// The subscribers, in the order their records are emitted.
    public var subscriberDefinitions: [Subscriber] { subscribers.map(\.subscriber) }

    /// What one subscriber's gate admitted and dropped, and the records it emitted by kind.
    public func statistics(of id: SubscriberID) -> SubscriberStatistics? {
        guard let running = subscribers.first(where: { $0.subscriber.id == id }) else { return nil }
        return SubscriberStatistics(
            accepted: running.services?.accepted ?? 0, dropped: running.services?.dropped ?? [:], emitted: running.emitted)
    }

    /// Inside, outside or unknown for a monitored region, geographic or beacon; nil if not monitored.
    public func regionState(identifier: String) -> RegionState? {
        let index = regionMonitor.index
        if let position = (0..<index.count).first(where: { index.identifier(at: $0) == identifier }) {
            return regionMonitor.state(ofRegionAt: position)
        }
        if let position = beaconMonitor.regions.firstIndex(where: { $0.identifier == identifier }) {
            return beaconMonitor.state(ofRegionAt: position)
        }
        return nil
    }

    /// Geographic and beacon regions monitored.
    public var regionCount: Int { regionMonitor.index.count + beaconMonitor.regions.count }
}

/// One subscriber's counts, for status and summaries.
public struct SubscriberStatistics: Sendable, Equatable {
    /// Fixes its gate admitted.
    public var accepted: Int
    /// Fixes its gate dropped, by reason.
    public var dropped: [DropReason: Int]
    /// Records it was given, by kind.
    public var emitted: [LocationEvent.Kind: Int]
}

extension DevicePipeline {
    /// The beacon identities a subscriber ranges now; nil when it ranges nothing.
    public func rangedIdentities(of id: SubscriberID) -> [BeaconIdentity]? {
        subscribers.first { $0.subscriber.id == id }?.ranger?.constraints
    }
}
