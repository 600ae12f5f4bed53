import WaymarkCore
import WaymarkImport
import WaymarkStore

extension ReportedVisit {
    /// The history row: `{"kind":"reportedVisit","time":START,"end":END,"latitude":…,"longitude":…,
    /// "name":…,"address":…,"placeId":…,"semanticType":…,"probability":…}`, absent fields left out.
    var storedEvent: StoredEvent {
        var record = JSONObjectWriter()
        record.add("kind", EventKind.reportedVisit.rawValue)
        record.add("time", start.rfc3339)
        record.add("end", end?.rfc3339)
        record.add("latitude", coordinate?.latitude)
        record.add("longitude", coordinate?.longitude)
        record.add("name", name)
        record.add("address", address)
        record.add("placeId", placeID)
        record.add("semanticType", semanticType)
        record.add("probability", probability)
        return StoredEvent(time: start, kind: .reportedVisit, coordinate: coordinate, record: record.object)
    }
}

extension ReportedActivity {
    /// The history row: `{"kind":"reportedActivity","time":START,"end":END,"mode":…,"distance":…,
    /// "from":{"latitude":…,"longitude":…},"to":{…},"probability":…}`, absent fields left out;
    /// the row's position is where the activity started.
    var storedEvent: StoredEvent {
        var record = JSONObjectWriter()
        record.add("kind", EventKind.reportedActivity.rawValue)
        record.add("time", start.rfc3339)
        record.add("end", end?.rfc3339)
        record.add("mode", mode)
        record.add("distance", distance)
        if let from { record.addRaw("from", Self.point(from)) }
        if let to { record.addRaw("to", Self.point(to)) }
        record.add("probability", probability)
        return StoredEvent(time: start, kind: .reportedActivity, coordinate: from, record: record.object)
    }

    private static func point(_ coordinate: Coordinate) -> String {
        var point = JSONObjectWriter()
        point.add("latitude", coordinate.latitude)
        point.add("longitude", coordinate.longitude)
        return point.object
    }
}
