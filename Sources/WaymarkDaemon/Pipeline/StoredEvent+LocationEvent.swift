import WaymarkCore
import WaymarkPipeline
import WaymarkRegions
import WaymarkStore

extension StoredEvent {
    /// The history row for an event the daemon records: region and beacon transitions, place
    /// changes (their `region` the new place), and configured subscriptions' records, labelled
    /// `"subscription":NAME`. Nil for the others (state, gaps, handlers' own records).
    init?(_ event: LocationEvent) {
        guard let time = event.time else { return nil }
        let record: String
        switch event {
        case .region, .place, .beacon, .accessory:
            record = event.record
        case .service(var service, .subscription(let name)):
            service.fields.append(("subscription", JSONObjectWriter.quoted(name)))
            record = service.json
        default:
            return nil
        }
        self.init(
            time: time, kind: event.kind, region: event.region, transition: event.transition.flatMap(RegionTransition.Kind.init(rawValue:)),
            coordinate: event.coordinate, record: record)
    }
}
