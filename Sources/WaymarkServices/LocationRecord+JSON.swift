import WaymarkCore

extension LocationRecord {
    /// A field's typed value, for the edges that write it (JSON, an export's text).
    public enum Value: Sendable, Equatable {
        case number(Double)
        case integer(Int)
        case text(String)
        /// A position (a trip's `from`): `{"latitude":…,"longitude":…}` in JSON.
        case coordinate(Coordinate)
    }

    /// The fields after kind, time and coordinate, in the order of the JSON record: a
    /// location's measurements (Core Location's order) and batch, a visit's event, times and
    /// uncertainty, a stay's or trip's members (`timelineMembers`), then the subscription.
    public var members: [(key: String, value: Value)] {
        var members: [(key: String, value: Value)] = []
        let measured: [(String, Double?)] = [
            ("horizontalAccuracy", measurements.horizontalAccuracy), ("altitude", measurements.altitude),
            ("verticalAccuracy", measurements.verticalAccuracy), ("speed", measurements.speed), ("course", measurements.course),
        ]
        for case (let key, let value?) in measured { members.append((key, .number(value))) }
        if let batch { members.append(("batch", .integer(batch))) }
        if let visit {
            members.append(("event", .text(visit.event.rawValue)))
            members.append(("arrivalTime", .text(visit.arrivalTime.rfc3339)))
            if let departure = visit.departureTime { members.append(("departureTime", .text(departure.rfc3339))) }
            members.append(("uncertainty", .number(visit.uncertainty)))
        }
        members += timelineMembers
        if let subscription { members.append(("subscription", .text(subscription))) }
        return members
    }

    /// `{"kind":…,"time":"…Z","latitude":…,"longitude":…, members…}`: the record as replay
    /// prints it, the history stores it and handlers receive it.
    public var json: String {
        var writer = JSONObjectWriter()
        writer.add("kind", kind.rawValue)
        writer.add("time", time.rfc3339)
        writer.add("latitude", coordinate.latitude)
        writer.add("longitude", coordinate.longitude)
        for (key, value) in members {
            switch value {
            case .number(let number): writer.addRaw(key, JSONObjectWriter.number(number))
            case .integer(let integer): writer.add(key, integer)
            case .text(let text): writer.add(key, text)
            case .coordinate(let position): writer.addRaw(key, Value.json(position))
            }
        }
        return writer.object
    }
}

extension LocationRecord.Value {
    /// As plain text: a string without quotes, a number as JSON writes it.
    public var text: String {
        switch self {
        case .number(let number): JSONObjectWriter.number(number)
        case .integer(let integer): String(integer)
        case .text(let text): text
        case .coordinate(let position): JSONObjectWriter.number(position.latitude) + "," + JSONObjectWriter.number(position.longitude)
        }
    }

    static func json(_ position: Coordinate) -> String {
        var writer = JSONObjectWriter()
        writer.add("latitude", position.latitude)
        writer.add("longitude", position.longitude)
        return writer.object
    }
}
