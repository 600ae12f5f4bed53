import WaymarkAPI
import WaymarkCore
import WaymarkServices

/// A configured subscription as the live pipeline runs it: its pipeline (gate, services,
/// authorization) and what it emitted.
struct RunningSubscription: Sendable {
    let name: String
    private(set) var pipeline: SubscriptionPipeline
    private(set) var events: [String: Int] = [:]

    init(_ configured: ConfiguredSubscription) {
        name = configured.name
        pipeline = SubscriptionPipeline(configured.services)
    }

    /// The records `fix` gives this subscription, each as the JSON stored and streamed: the
    /// service's record with `"subscription":NAME` appended.
    mutating func process(_ fix: Fix) -> [LocationRecord] {
        guard case .accepted(let records) = pipeline.process(fix) else { return [] }
        return labelled(records)
    }

    /// What the services still hold (a deferred batch), labelled likewise.
    mutating func finish() -> [LocationRecord] { labelled(pipeline.finish()) }

    private mutating func labelled(_ records: [LocationRecord]) -> [LocationRecord] {
        var records = records
        for index in records.indices {
            events[records[index].kind, default: 0] += 1
            records[index].fields.append(("subscription", JSONObjectWriter.quoted(name)))
        }
        return records
    }

    var status: SubscriptionStatus {
        let services = pipeline.subscription
        var names: [String] = []
        if services.standard != nil { names.append("standard") }
        if services.significantChange != nil { names.append("significantChange") }
        if services.visits != nil { names.append("visits") }
        return SubscriptionStatus(
            name: name, services: names, precision: services.authorization.precision.rawValue,
            accepted: pipeline.accepted,
            dropped: Dictionary(uniqueKeysWithValues: pipeline.dropped.map { ($0.key.rawValue, $0.value) }),
            events: events)
    }
}
