import WaymarkBeacons
import WaymarkCore
import WaymarkRegions
import WaymarkPipeline

extension OwnTracksMessage {
    /// What the message gives a device's pipeline (docs/devices.md, "What each message does"),
    /// `received` being when it arrived:
    /// - `location`: its fix (which also moves the device's beacon time on, as in a replay: a
    ///   phone has one clock, so a beacon it stopped reporting is left once the region's exit
    ///   timeout has passed by the phone's own time);
    /// - `beacon`: an advertisement for Waymark's own beacon-region monitoring;
    /// - `transition`, `waypoint(s)`, `lwt`, `card`: a record of what the device reported
    ///   (`reportedRegion`, `reportedWaypoint`, `reportedOffline`, `reportedCard`), which
    ///   handlers are not given.
    public func sourceEvents(received: Timestamp) -> [SourceEvent] {
        switch self {
        case .location(let location):
            return [.fix(location.fix)]
        case .beacon(let beacon):
            return [.advertisement(beacon.advertisement)]
        case .transition(let transition):
            return [.reported(transition.eventRecord)]
        case .waypoint(let waypoint):
            return [.reported(waypoint.eventRecord(received: received))]
        case .waypoints(let waypoints):
            return waypoints.map { .reported($0.eventRecord(received: received)) }
        case .lastWill(let connectedAt):
            return [.reported(OwnTracksMessage.offlineEvent(connectedAt: connectedAt, received: received))]
        case .card(let card):
            return [.reported(card.eventRecord(received: received))]
        case .unsupported:
            return []
        }
    }
}

extension OwnTracksBeacon {
    /// The sighting as an advertisement. The app sends no transmit power, so `measuredPower` is
    /// 0 (unknown); the RSSI is clamped to the advertisement's range, 0 when absent.
    public var advertisement: BeaconAdvertisement {
        let rssi = Int8(clamping: rssi ?? 0)
        return BeaconAdvertisement(time: time, uuid: uuid, major: major, minor: minor, measuredPower: 0, rssi: rssi)
    }
}

extension OwnTracksTransition {
    /// `{"kind":"reportedRegion","transition":"enter"|"exit","region":…,"time":…,
    /// "latitude":…,"longitude":…,"description":…,"trigger":…}` (position, description and
    /// trigger when the message has them). The region is named by `rid`, which is Waymark's
    /// identifier for regions sent with `setWaypoints`, else by `desc`.
    public var eventRecord: EventRecord {
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
        return EventRecord(
            time: time, kind: .reportedRegion, region: region, transition: kind, coordinate: fix?.coordinate, record: record.object)
    }
}
