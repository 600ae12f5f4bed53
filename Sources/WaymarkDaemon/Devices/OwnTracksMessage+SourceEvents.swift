import WaymarkCore
import WaymarkRegions
import WaymarkSources
import WaymarkStore

extension OwnTracksMessage {
    /// What the message gives a device's pipeline: a `location` its fix; a `transition` the
    /// device's own view of a region crossing (`reportedRegion`, the region named by `rid`, which
    /// is Waymark's identifier for regions sent with `setWaypoints`, else by `desc`). The other
    /// kinds give nothing yet (docs/devices.md).
    var sourceEvents: [SourceEvent] {
        switch self {
        case .location(let location):
            return [.fix(location.fix)]
        case .transition(let transition):
            return [.reported(transition.storedEvent)]
        default:
            return []
        }
    }
}

extension OwnTracksTransition {
    /// `{"kind":"reportedRegion","transition":"enter"|"exit","region":…,"time":…,
    /// "latitude":…,"longitude":…,"description":…,"trigger":…}` (position, description and
    /// trigger when the message has them).
    var storedEvent: StoredEvent {
        let kind: RegionTransition.Kind = event == .enter ? .enter : .exit
        let region = regionID ?? regionName
        var record = JSONObjectWriter()
        record.add("kind", EventKind.reportedRegion.rawValue)
        record.add("transition", kind.rawValue)
        record.add("region", region)
        record.add("time", time.rfc3339)
        if let coordinate = fix?.coordinate {
            record.add("latitude", coordinate.latitude)
            record.add("longitude", coordinate.longitude)
        }
        if let regionName { record.add("description", regionName) }
        if let trigger { record.add("trigger", trigger) }
        return StoredEvent(
            time: time, kind: .reportedRegion, region: region, transition: kind, coordinate: fix?.coordinate, record: record.object)
    }
}
