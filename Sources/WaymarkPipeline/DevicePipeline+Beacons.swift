import WaymarkBeacons
import WaymarkCore
import WaymarkRegions

extension DevicePipeline {
    /// An advertisement: rangings due before it, the ranger and the beacon monitor updated.
    mutating func handle(_ advertisement: BeaconAdvertisement, into step: inout Step) {
        for index in subscribers.indices {
            subscribers[index].range(before: advertisement.time, into: &step.events)
            subscribers[index].ranger?.record(advertisement)
        }
        record(beaconMonitor.process(advertisement), time: advertisement.time, into: &step)
        beaconTime = max(beaconTime ?? advertisement.time, advertisement.time)
    }

    /// Lets beacon time pass without an advertisement: exits and rangings due before `time`.
    mutating func advanceBeacons(to time: Timestamp, into step: inout Step) {
        for index in subscribers.indices { subscribers[index].range(before: time, into: &step.events) }
        record(beaconMonitor.advance(to: time), time: time, into: &step)
        beaconTime = max(beaconTime ?? time, time)
    }

    /// Transitions as events; states saved at each change, and inside regions' last sightings
    /// at most every `sightingSaveInterval` of beacon time.
    private mutating func record(_ update: BeaconUpdate, time: Timestamp, into step: inout Step) {
        for transition in update.transitions where transition.notifies { step.events.append(.beacon(transition)) }
        var changed = update.changedRegions
        if let saved = sightingsSaved, time.seconds(since: saved) < options.sightingSaveInterval {
            if changed.isEmpty { return }
        } else {
            sightingsSaved = time
            changed += beaconMonitor.insideRegions
        }
        step.states += Set(changed).sorted().compactMap { beaconMonitor.savedState(ofRegionAt: Int($0)) }
    }
}
