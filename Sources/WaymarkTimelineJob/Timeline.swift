import WaymarkCore
import WaymarkPlaces
import WaymarkServices

/// What a stay or a trip's end is called (docs/timeline.md, "Place names"): the smallest of the
/// user's own regions holding the point wins; otherwise the nearest GeoNames place; at sea, none.
public struct PlaceName: Sendable, Equatable {
    /// What a person reads: the region's `name`, or "Town, Admin1, Country", or "At sea".
    public var label: String
    /// The user's region holding the point (its identifier), when one does.
    public var region: String?
    /// The offline geocoder's answer; nil when no place data is installed.
    public var lookup: PlaceLookup?

    public init(label: String, region: String?, lookup: PlaceLookup?) {
        self.label = label
        self.region = region
        self.lookup = lookup
    }

    /// The IANA time zone the place's local times are given in ("UTC" without place data).
    public var timeZone: String { lookup?.timeZone ?? "UTC" }
}

/// One line of a timeline: a stay with its place, or a trip with where it left and reached.
public enum TimelineEntry: Sendable, Equatable {
    case stay(TimelineStay, place: PlaceName)
    /// `path`: the trip's fixes simplified for drawing (Douglas–Peucker, a few metres), first
    /// and last kept.
    case trip(TimelineTrip, from: PlaceName, to: PlaceName, path: [Coordinate])
}

/// A device's stays and trips over a time range, named, with the still-open segment (the trip
/// under way or the stay the device is in) marked `open`.
public struct Timeline: Sendable, Equatable {
    public var device: String
    public var from: Timestamp
    public var to: Timestamp
    /// The time zone the range's day was taken in (`--day`), IANA.
    public var timeZone: String
    /// Every stay and trip overlapping [from, to), in time order.
    public var entries: [TimelineEntry]
    /// Whether the last entry is still open (its end the latest fix so far).
    public var lastIsOpen: Bool

    public init(device: String, from: Timestamp, to: Timestamp, timeZone: String, entries: [TimelineEntry], lastIsOpen: Bool) {
        self.device = device
        self.from = from
        self.to = to
        self.timeZone = timeZone
        self.entries = entries
        self.lastIsOpen = lastIsOpen
    }
}

/// The timeline's JSON (`waymark timeline --json`, `GET /v1/timeline`; docs/timeline.md), one
/// object, times RFC 3339 UTC with their local form beside them:
///
///     {"device":"phone","from":"2026-05-01T22:00:00Z","to":"2026-05-02T22:00:00Z",
///      "timeZone":"Europe/Berlin","open":true,"entries":[
///       {"kind":"stay","arrival":"…Z","departure":"…Z","localArrival":"2026-05-02T08:12:00+02:00",
///        "localDeparture":"…","latitude":52.1,"longitude":13.2,"uncertainty":23.5,"fixes":120,
///        "place":PLACE},
///       {"kind":"trip","start":"…Z","end":"…Z","localStart":"…","localEnd":"…","mode":"cycling",
///        "distance":6400.1,"duration":1680,"movingTime":1500,"maxSpeed":8.1,"averageSpeed":3.8,
///        "elevationGain":42.0,"fixes":1600,"from":PLACE,"to":PLACE,"path":[[13.2,52.1],…]}]}
///
///     PLACE = {"label":"Home","region":"home","name":"Potsdam","admin1":"Brandenburg",
///              "country":"Germany","countryCode":"DE","distance":1234.5,
///              "timeZone":"Europe/Berlin","atSea":false}
///
/// Metres, seconds and metres per second; `path` is [longitude, latitude] pairs (GeoJSON order);
/// a PLACE's GeoNames members are absent without place data or at sea; `region` absent when no
/// region holds the point; `elevationGain` absent without altitudes. The last entry is open
/// (`"open":true` on the timeline) when the device is still on that trip or at that stay.
