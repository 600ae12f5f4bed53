import Testing
import WaymarkCore
import WaymarkPlaces
import WaymarkServices
import WaymarkTimelineJob

/// The timeline's JSON, member by member: the API, the web page and the CLI's `--json` read it.
@Suite struct TimelineJSONTests {
    static func time(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

    static let potsdam = PlaceLookup(
        place: NamedPlace(
            name: "Potsdam", admin1: "Brandenburg", countryCode: "DE", country: "Germany",
            coordinate: Coordinate(latitude: 52.39886, longitude: 13.06566), distance: 1234.5),
        timeZone: "Europe/Berlin", atSea: false)

    static let timeline = Timeline(
        device: "phone", from: time("2026-05-01T22:00:00Z"), to: time("2026-05-02T22:00:00Z"), timeZone: "Europe/Berlin",
        entries: [
            .stay(
                TimelineStay(
                    arrival: time("2026-05-01T18:30:00Z"), departure: time("2026-05-02T06:12:00Z"),
                    centre: Coordinate(latitude: 52.1, longitude: 13.2), uncertainty: 23.5, fixCount: 120),
                place: PlaceName(label: "Home", region: "home", lookup: potsdam)),
            .trip(
                TimelineTrip(
                    start: time("2026-05-02T06:12:00Z"), end: time("2026-05-02T06:40:00Z"), from: Coordinate(latitude: 52.1, longitude: 13.2),
                    to: Coordinate(latitude: 52.15, longitude: 13.25), distance: 6400.1, movingTime: 1500, maxSpeed: 8.1,
                    averageSpeed: 3.8, elevationGain: 42, mode: .cycling, fixCount: 1600),
                from: PlaceName(label: "Home", region: "home", lookup: potsdam),
                to: PlaceName(label: "At sea", region: nil, lookup: PlaceLookup(place: nil, timeZone: "Etc/GMT-1", atSea: true)),
                path: [Coordinate(latitude: 52.1, longitude: 13.2), Coordinate(latitude: 52.15, longitude: 13.25)]),
            .trip(
                TimelineTrip(
                    start: time("2026-05-02T07:00:00.5Z"), end: time("2026-05-02T07:10:00Z"), from: Coordinate(latitude: 52.15, longitude: 13.25),
                    to: Coordinate(latitude: 52.16, longitude: 13.26), distance: 900, movingTime: 580, maxSpeed: 2,
                    averageSpeed: 1.5, elevationGain: nil, mode: .walking, fixCount: 60),
                from: PlaceName(label: "52.15000, 13.25000", region: nil, lookup: nil),
                to: PlaceName(label: "52.16000, 13.26000", region: nil, lookup: nil), path: []),
        ],
        lastIsOpen: true)

    @Test func golden() {
        let expected =
            #"{"device":"phone","from":"2026-05-01T22:00:00Z","to":"2026-05-02T22:00:00Z","timeZone":"Europe/Berlin","open":true,"entries":["#
            + #"{"kind":"stay","arrival":"2026-05-01T18:30:00Z","departure":"2026-05-02T06:12:00Z","localArrival":"2026-05-01T20:30:00+02:00","#
            + #""localDeparture":"2026-05-02T08:12:00+02:00","latitude":52.1,"longitude":13.2,"uncertainty":23.5,"fixes":120,"#
            + #""place":{"label":"Home","region":"home","name":"Potsdam","admin1":"Brandenburg","country":"Germany","countryCode":"DE","#
            + #""distance":1234.5,"timeZone":"Europe/Berlin","atSea":false}},"#
            + #"{"kind":"trip","start":"2026-05-02T06:12:00Z","end":"2026-05-02T06:40:00Z","localStart":"2026-05-02T08:12:00+02:00","#
            + #""localEnd":"2026-05-02T07:40:00+01:00","mode":"cycling","distance":6400.1,"duration":1680,"movingTime":1500,"maxSpeed":8.1,"#
            + #""averageSpeed":3.8,"elevationGain":42,"fixes":1600,"#
            + #""from":{"label":"Home","region":"home","name":"Potsdam","admin1":"Brandenburg","country":"Germany","countryCode":"DE","#
            + #""distance":1234.5,"timeZone":"Europe/Berlin","atSea":false},"#
            + #""to":{"label":"At sea","timeZone":"Etc/GMT-1","atSea":true},"path":[[13.2,52.1],[13.25,52.15]]},"#
            + #"{"kind":"trip","start":"2026-05-02T07:00:00.5Z","end":"2026-05-02T07:10:00Z","localStart":"2026-05-02T09:00:00+02:00","#
            + #""localEnd":"2026-05-02T09:10:00+02:00","mode":"walking","distance":900,"duration":599.5,"movingTime":580,"maxSpeed":2,"#
            + #""averageSpeed":1.5,"fixes":60,"from":{"label":"52.15000, 13.25000","timeZone":"Europe/Berlin","atSea":false},"#
            + #""to":{"label":"52.16000, 13.26000","timeZone":"Europe/Berlin","atSea":false},"path":[]}]}"#
        #expect(Self.timeline.json == expected)
    }

    @Test func labelsNeedingEscapes() {
        var timeline = Self.timeline
        timeline.entries = [
            .stay(
                TimelineStay(arrival: Self.time("2026-05-02T06:00:00Z"), departure: Self.time("2026-05-02T07:00:00Z"), centre: Coordinate(latitude: 1, longitude: 2), uncertainty: 0, fixCount: 1),
                place: PlaceName(label: "Café \"Rosa\"\n", region: "caf\\e", lookup: nil))
        ]
        #expect(timeline.json.contains(#""label":"Café \"Rosa\"\n","region":"caf\\e""#))
    }
}
