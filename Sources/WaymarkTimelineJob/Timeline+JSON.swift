import Foundation
import WaymarkCore
import WaymarkPlaces
import WaymarkServices

extension Timeline {
    /// The timeline as one JSON object (the shape in Timeline.swift's comment; the CLI's `--json`,
    /// `GET /v1/timeline`). Local times are in each place's zone (a stay's, a trip's start and end
    /// places'), or the timeline's `timeZone` without place data; members without a value are left out.
    public var json: String {
        var object = JSONObjectWriter()
        object.add("device", device)
        object.add("from", from.rfc3339)
        object.add("to", to.rfc3339)
        object.add("timeZone", timeZone)
        object.add("open", lastIsOpen)
        let zone = LocalTime.zone(timeZone) ?? TimeZone(identifier: "UTC")!
        object.addRaw("entries", "[" + entries.map { Self.json($0, zone: zone) }.joined(separator: ",") + "]")
        return object.object
    }

    static func json(_ entry: TimelineEntry, zone timelineZone: TimeZone) -> String {
        var object = JSONObjectWriter()
        switch entry {
        case .stay(let stay, let place):
            let zone = Self.zone(place, else: timelineZone)
            object.add("kind", "stay")
            object.add("arrival", stay.arrival.rfc3339)
            object.add("departure", stay.departure.rfc3339)
            object.add("localArrival", LocalTime.rfc3339(stay.arrival, in: zone))
            object.add("localDeparture", LocalTime.rfc3339(stay.departure, in: zone))
            object.add("latitude", stay.centre.latitude)
            object.add("longitude", stay.centre.longitude)
            object.add("uncertainty", stay.uncertainty)
            object.add("fixes", stay.fixCount)
            object.addRaw("place", json(place, zone: timelineZone))
        case .trip(let trip, let from, let to, let path):
            object.add("kind", "trip")
            object.add("start", trip.start.rfc3339)
            object.add("end", trip.end.rfc3339)
            object.add("localStart", LocalTime.rfc3339(trip.start, in: Self.zone(from, else: timelineZone)))
            object.add("localEnd", LocalTime.rfc3339(trip.end, in: Self.zone(to, else: timelineZone)))
            object.add("mode", trip.mode.rawValue)
            object.add("distance", trip.distance)
            object.add("duration", trip.duration)
            object.add("movingTime", trip.movingTime)
            object.add("maxSpeed", trip.maxSpeed)
            object.add("averageSpeed", trip.averageSpeed)
            if let gain = trip.elevationGain { object.add("elevationGain", gain) }
            object.add("fixes", trip.fixCount)
            object.addRaw("from", json(from, zone: timelineZone))
            object.addRaw("to", json(to, zone: timelineZone))
            let points = path.map { "[" + JSONObjectWriter.number($0.longitude) + "," + JSONObjectWriter.number($0.latitude) + "]" }
            object.addRaw("path", "[" + points.joined(separator: ",") + "]")
        }
        return object.object
    }

    /// A place; without place data its `timeZone` is the timeline's, the zone its local times are in.
    static func json(_ place: PlaceName, zone timelineZone: TimeZone) -> String {
        var object = JSONObjectWriter()
        object.add("label", place.label)
        if let region = place.region { object.add("region", region) }
        if let found = place.lookup?.place, place.lookup?.atSea == false {
            object.add("name", found.name)
            if let admin1 = found.admin1 { object.add("admin1", admin1) }
            object.add("country", found.country)
            object.add("countryCode", found.countryCode)
            object.add("distance", found.distance)
        }
        object.add("timeZone", place.lookup?.timeZone ?? timelineZone.identifier)
        object.add("atSea", place.lookup?.atSea ?? false)
        return object.object
    }

    /// The place's zone; without place data, the timeline's (the zone the range was taken in).
    private static func zone(_ place: PlaceName, else timelineZone: TimeZone) -> TimeZone {
        place.lookup.flatMap { LocalTime.zone($0.timeZone) } ?? timelineZone
    }
}
