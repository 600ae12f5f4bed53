import WaymarkBeacons
import WaymarkCore
import WaymarkRegions
import WaymarkServices

/// A subscriber as the pipeline runs it: its service pipeline (gate, services, authorization),
/// its ranger, and what it emitted.
struct RunningSubscriber: Sendable {
    let subscriber: Subscriber
    var services: SubscriptionPipeline?
    var ranger: BeaconRanger?
    /// Records emitted, by kind.
    var emitted: [LocationEvent.Kind: Int] = [:]
    /// The services' marks as last reported to be saved (docs/semantics.md §2.5).
    private(set) var marks: [ServiceMark] = []

    /// - Parameter resume: what an earlier run saved for this subscriber, and the device's stored
    ///   fixes since the earliest moment any subscriber's marks need (each service takes its own).
    /// - Parameter silence: what a silence between fixes means to the services.
    init(_ subscriber: Subscriber, beaconRegions: [Region], resume: SavedServiceMarks? = nil, silence: SilenceRule = .standard) {
        self.subscriber = subscriber
        services = subscriber.services.map { SubscriptionPipeline($0, silence: silence) }
        ranger = Self.ranger(for: subscriber.ranging, beaconRegions: beaconRegions)
        if let resume, let saved = resume.marks[subscriber.id], services != nil {
            let from = saved.replayFrom
            services!.resume(from: saved, replaying: from.map { from in resume.fixes.filter { ($0.time ?? from) >= from } } ?? [])
            marks = services!.marks
        }
    }

    /// The services' marks when they changed since last asked: to be saved with this input's events.
    mutating func changedMarks() -> [ServiceMark]? {
        guard let current = services?.marks, current != marks else { return nil }
        marks = current
        return current
    }

    /// The ranger for `ranging` over the monitored beacon regions; nil when nothing is to be ranged.
    static func ranger(for ranging: Subscriber.Ranging?, beaconRegions: [Region]) -> BeaconRanger? {
        switch ranging {
        case nil: return nil
        case .monitoredRegions: return BeaconRanger(constraints: beaconRegions.compactMap(\.beacon))
        case .regions(let identifiers):
            let identities = beaconRegions.filter { identifiers.contains($0.identifier) }.compactMap(\.beacon)
            return identities.isEmpty ? nil : BeaconRanger(constraints: identities)
        }
    }

    /// The beacon regions changed: a ranger whose identities did not change keeps its sightings.
    mutating func beaconRegionsChanged(_ beaconRegions: [Region]) {
        let fresh = Self.ranger(for: subscriber.ranging, beaconRegions: beaconRegions)
        if fresh?.constraints != ranger?.constraints { ranger = fresh }
    }

    mutating func process(_ fix: Fix, receivedAt: Timestamp? = nil, into events: inout [LocationEvent]) {
        guard services != nil, case .accepted(let records) = services!.process(fix, receivedAt: receivedAt) else { return }
        append(records, to: &events)
    }

    mutating func finish(into events: inout [LocationEvent]) {
        guard services != nil else { return }
        append(services!.finish(), to: &events)
    }

    mutating func range(before time: Timestamp, through: Bool = false, into events: inout [LocationEvent]) {
        guard ranger != nil else { return }
        let id = subscriber.id
        var count = 0
        ranger!.rangings(before: time, through: through) { instant, beacons in
            events.append(.ranging(time: instant, beacons: beacons, subscriber: id))
            count += 1
        }
        if count > 0 { emitted[.ranging, default: 0] += count }
    }

    private mutating func append(_ records: [LocationRecord], to events: inout [LocationEvent]) {
        for record in records {
            let event = LocationEvent.service(record, subscriber: subscriber.id)
            emitted[event.kind, default: 0] += 1
            events.append(event)
        }
    }
}
