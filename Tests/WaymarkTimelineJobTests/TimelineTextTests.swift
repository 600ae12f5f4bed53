import Testing
import WaymarkCore
import WaymarkPlaces
import WaymarkServices
import WaymarkTimelineJob

/// `TimelineText`: the lines `waymark timeline` prints for a known day.
@Suite struct TimelineTextTests {
    static func time(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

    static func place(_ label: String, zone: String = "Europe/Berlin") -> PlaceName {
        PlaceName(label: label, region: nil, lookup: PlaceLookup(place: nil, timeZone: zone, atSea: false))
    }

    static func stay(_ arrival: String, _ departure: String, _ latitude: Double = 52.4) -> TimelineStay {
        TimelineStay(
            arrival: time(arrival), departure: time(departure), centre: Coordinate(latitude: latitude, longitude: 13.06), uncertainty: 20,
            fixCount: 30)
    }

    static func trip(_ start: String, _ end: String, _ mode: TravelMode, _ distance: Double) -> TimelineTrip {
        let duration = time(end).seconds(since: time(start))
        return TimelineTrip(
            start: time(start), end: time(end), from: Coordinate(latitude: 52.4, longitude: 13.03),
            to: Coordinate(latitude: 52.39, longitude: 13.12), distance: distance, movingTime: duration, maxSpeed: 7,
            averageSpeed: distance / duration, elevationGain: nil, mode: mode, fixCount: 300)
    }

    /// A Monday in Potsdam (UTC+2): the night's stay clipped to midnight, the open stay "since".
    @Test func aKnownDayReadsAsAPersonWouldSayIt() {
        let home = Self.place("Home")
        let office = Self.place("Office, Potsdam")
        let cafe = Self.place("Café Rosa")
        let timeline = Timeline(
            device: "phone", from: Self.time("2026-05-31T22:00:00Z"), to: Self.time("2026-06-01T22:00:00Z"), timeZone: "Europe/Berlin",
            entries: [
                .stay(Self.stay("2026-05-31T17:30:00Z", "2026-06-01T06:12:40Z"), place: home),
                .trip(Self.trip("2026-06-01T06:12:40Z", "2026-06-01T06:40:10Z", .cycling, 6_412), from: home, to: office, path: []),
                .stay(Self.stay("2026-06-01T06:40:10Z", "2026-06-01T10:05:59Z"), place: office),
                .trip(Self.trip("2026-06-01T10:05:59Z", "2026-06-01T10:15:30Z", .walking, 849.6), from: office, to: cafe, path: []),
                .stay(Self.stay("2026-06-01T10:15:30Z", "2026-06-01T11:02:00Z"), place: cafe),
            ], lastIsOpen: true)
        #expect(
            TimelineText.lines(timeline) == [
                "Monday 1 June 2026",
                "00:00–08:12  Home",
                "08:12–08:40  Cycling 6.4 km (28 min) → Office, Potsdam",
                "08:40–12:05  Office, Potsdam",
                "12:05–12:15  Walking 850 m (10 min) → Café Rosa",
                "since 12:15  Café Rosa",
            ])
    }

    /// A range over two days starts each local day with its date; a trip into another zone gives
    /// its end in that zone, named; a closed last entry has both times.
    @Test func daysAndZonesAreSaid() {
        let berlin = Self.place("Berlin")
        let helsinki = Self.place("Helsinki", zone: "Europe/Helsinki")
        let timeline = Timeline(
            device: "phone", from: Self.time("2026-06-01T00:00:00Z"), to: Self.time("2026-06-03T00:00:00Z"), timeZone: "Europe/Berlin",
            entries: [
                .stay(Self.stay("2026-06-01T08:00:00Z", "2026-06-01T20:50:00Z"), place: berlin),
                .trip(Self.trip("2026-06-01T20:50:00Z", "2026-06-01T22:55:00Z", .flight, 1_105_000), from: berlin, to: helsinki, path: []),
                .stay(Self.stay("2026-06-01T22:55:00Z", "2026-06-02T06:00:00Z", 60.17), place: helsinki),
                .trip(Self.trip("2026-06-02T06:00:00Z", "2026-06-02T06:03:00Z", .unknown, 40), from: helsinki, to: helsinki, path: []),
            ], lastIsOpen: false)
        #expect(
            TimelineText.lines(timeline) == [
                "Monday 1 June 2026",
                "10:00–22:50  Berlin",
                "22:50–01:55 Europe/Helsinki  Flight 1105.0 km (2 h 05 min) → Helsinki",
                "Tuesday 2 June 2026",
                "01:55 Europe/Helsinki–09:00 Europe/Helsinki  Helsinki",
                "09:00 Europe/Helsinki–09:03 Europe/Helsinki  Moving 40 m (3 min) → Helsinki",
            ])
    }

    @Test(arguments: [(0.4, "0 min"), (89.0, "1 min"), (3_599.0, "1 h 00 min"), (3_900.0, "1 h 05 min"), (90_000.0, "25 h 00 min")])
    func durations(_ seconds: Double, _ text: String) {
        #expect(TimelineText.duration(seconds) == text)
    }

    @Test(arguments: [(0.0, "0 m"), (999.4, "999 m"), (999.6, "1.0 km"), (6_449.0, "6.4 km")])
    func distances(_ metres: Double, _ text: String) {
        #expect(TimelineText.distance(metres) == text)
    }
}
