import WaymarkCore
import WaymarkPipeline

// The OwnTracks messages Waymark records as the device's own word, at the time they arrived
// (docs/devices.md): the device's regions, its connection dropping, its user's card.

extension OwnTracksWaypoint {
    /// `{"kind":"reportedWaypoint","region":…,"time":…,"created":…,"description":…,
    /// "latitude":…,"longitude":…,"radius":…,"uuid":…,"major":…,"minor":…}`: `region` is the
    /// waypoint's `rid` when it has one, else its `desc`; the members it lacks are left out.
    public func eventRecord(received: Timestamp) -> EventRecord {
        let region = regionID ?? name
        var record = JSONObjectWriter()
        record.add("kind", EventKind.reportedWaypoint.rawValue)
        record.add("region", region)
        record.add("time", received.rfc3339)
        record.add("created", created.rfc3339)
        record.add("description", name)
        if let center {
            record.add("latitude", center.latitude)
            record.add("longitude", center.longitude)
        }
        if let radius { record.add("radius", radius) }
        if let beacon {
            record.add("uuid", beacon.uuid.description)
            if let major = beacon.major { record.add("major", Int(major)) }
            if let minor = beacon.minor { record.add("minor", Int(minor)) }
        }
        return EventRecord(time: received, kind: .reportedWaypoint, region: region, coordinate: center, record: record.object)
    }
}

extension OwnTracksCard {
    /// `{"kind":"reportedCard","time":…,"name":…,"trackerID":…}`. The picture (`face`) is not
    /// kept: it is the app's to show, and would make every history line carrying it kilobytes long.
    public func eventRecord(received: Timestamp) -> EventRecord {
        var record = JSONObjectWriter()
        record.add("kind", EventKind.reportedCard.rawValue)
        record.add("time", received.rfc3339)
        if let name { record.add("name", name) }
        if let trackerID { record.add("trackerID", trackerID) }
        return EventRecord(time: received, kind: .reportedCard, record: record.object)
    }
}

extension OwnTracksMessage {
    /// `{"kind":"reportedOffline","time":…,"connectedAt":…}`: the broker published the device's
    /// last will (its connection dropped) at `received`; `connectedAt` is when it had connected.
    public static func offlineEvent(connectedAt: Timestamp, received: Timestamp) -> EventRecord {
        var record = JSONObjectWriter()
        record.add("kind", EventKind.reportedOffline.rawValue)
        record.add("time", received.rfc3339)
        record.add("connectedAt", connectedAt.rfc3339)
        return EventRecord(time: received, kind: .reportedOffline, record: record.object)
    }
}
