import Foundation
import WaymarkCore
import WaymarkExport
import WaymarkServices

extension Timeline {
    /// The timeline as a day overlay (`waymark export --timeline`): each stay a named stop, each
    /// trip a leg in its mode's colour, with the words and local times `waymark timeline` prints.
    public var overlay: DayOverlay {
        let zone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")!
        let clock = LocalClock(zone)
        var stops: [DayOverlay.Stop] = []
        var legs: [DayOverlay.Leg] = []
        for (index, entry) in entries.enumerated() {
            let open = lastIsOpen && index == entries.count - 1
            switch entry {
            case .stay(let stay, let place):
                let times = open ? "since \(clock.time(stay.arrival))" : "\(clock.time(stay.arrival))–\(clock.time(stay.departure))"
                stops.append(
                    DayOverlay.Stop(
                        name: place.label, description: "\(times) (\(TimelineText.duration(stay.duration))), \(timeZone)",
                        coordinate: stay.centre, arrival: stay.arrival, departure: stay.departure, open: open))
            case .trip(let trip, _, let to, let path):
                let name = "\(TimelineText.modeName(trip.mode)) to \(to.label)"
                var words = "\(clock.time(trip.start))–\(clock.time(trip.end)): \(TimelineText.distance(trip.distance)) in "
                words += "\(TimelineText.duration(trip.duration)), moving \(TimelineText.duration(trip.movingTime)), "
                words += String(format: "top %.0f km/h", trip.maxSpeed * 3.6)
                if let gain = trip.elevationGain { words += String(format: ", %.0f m climbed", gain) }
                legs.append(
                    DayOverlay.Leg(
                        name: name, description: words, mode: trip.mode.rawValue, colour: trip.mode.colour, start: trip.start, end: trip.end,
                        path: path.isEmpty ? [trip.from, trip.to] : path, distance: trip.distance, duration: trip.duration, open: open))
            }
        }
        // GeoNames' licence (CC BY 4.0) asks for credit wherever its names are shown.
        let named = entries.contains { entry in
            switch entry {
            case .stay(_, let place): place.lookup?.place != nil && place.region == nil
            case .trip(_, let from, let to, _): [from, to].contains { $0.lookup?.place != nil && $0.region == nil }
            }
        }
        return DayOverlay(
            name: "\(device), \(clock.date(from))", stops: stops, legs: legs,
            attribution: named ? "Place names: GeoNames, geonames.org (CC BY 4.0)" : nil)
    }
}
