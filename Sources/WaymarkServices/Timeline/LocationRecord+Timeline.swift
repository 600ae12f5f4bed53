import WaymarkCore

extension LocationRecord {
    /// A stay as the `timeline` service reports it, once the device has left: stamped with its
    /// departure, at its centre.
    public init(stay: TimelineStay) {
        self.init(kind: .stay, time: stay.departure, coordinate: stay.centre, stay: stay)
    }

    /// A trip as the `timeline` service reports it, once it has reached its stay: stamped with
    /// its end, at where it arrived.
    public init(trip: TimelineTrip) {
        self.init(kind: .trip, time: trip.end, coordinate: trip.to, trip: trip)
    }

    /// The record of a finished segment.
    public init(segment: TimelineSegment) {
        switch segment {
        case .stay(let stay): self.init(stay: stay)
        case .trip(let trip): self.init(trip: trip)
        }
    }

    /// A stay's or a trip's members of the JSON record (docs/timeline/events.md), after kind,
    /// time and coordinate; the names are the timeline's (`waymark timeline --json`). Metres,
    /// seconds and metres per second to centimetres; `elevationGain` absent without altitudes.
    var timelineMembers: [(key: String, value: Value)] {
        if let stay {
            return [
                ("arrival", .text(stay.arrival.rfc3339)), ("departure", .text(stay.departure.rfc3339)),
                ("uncertainty", .number(Self.centi(stay.uncertainty))), ("fixes", .integer(stay.fixCount)),
            ]
        }
        guard let trip else { return [] }
        var members: [(key: String, value: Value)] = [
            ("start", .text(trip.start.rfc3339)), ("end", .text(trip.end.rfc3339)), ("from", .coordinate(trip.from)),
            ("distance", .number(Self.centi(trip.distance))), ("duration", .number(Self.centi(trip.duration))),
            ("movingTime", .number(Self.centi(trip.movingTime))), ("maxSpeed", .number(Self.centi(trip.maxSpeed))),
            ("averageSpeed", .number(Self.centi(trip.averageSpeed))),
        ]
        if let gain = trip.elevationGain { members.append(("elevationGain", .number(Self.centi(gain)))) }
        members += [("mode", .text(trip.mode.rawValue)), ("fixes", .integer(trip.fixCount))]
        return members
    }

    private static func centi(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
