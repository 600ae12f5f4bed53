import WaymarkBeacons
import WaymarkCore
import WaymarkRegions

extension LocationEvent {
    /// The JSON Lines record, byte for byte what `waymark replay` prints (README documents each
    /// kind). Service records carry no subscriber; the daemon labels configured subscriptions'
    /// records itself (`labelled(subscription:)`).
    public var record: String {
        switch self {
        case .state(let fix, let inside): RegionRecords.state(fix: fix, inside: inside)
        case .region(let transition): RegionRecords.transition(transition)
        case .place(let fix, let place, let previous, let confirmedAt):
            RegionRecords.place(place, previous: previous, fix: fix, confirmedAt: confirmedAt)
        case .beacon(let transition): BeaconRecords.transition(transition)
        case .service(let record, _): record.json
        case .ranging(let time, let beacons, _): BeaconRecords.ranging(time: time, beacons: beacons)
        case .gap(let time, let reason):
            {
                var json = JSONObjectWriter()
                json.add("kind", "gap")
                json.add("time", time.rfc3339)
                json.add("reason", reason)
                return json.object
            }()
        case .accessory(let event): event.record
        }
    }

    /// Whether anyone is to be told of it: transitions of regions that asked to be notified,
    /// every place change, service and ranging record. State and gaps are recorded, not announced.
    public var notifies: Bool {
        switch self {
        case .region(let transition): transition.notifies
        case .beacon(let transition): transition.notifies
        case .place, .service, .ranging, .accessory: true
        case .state, .gap: false
        }
    }
}
