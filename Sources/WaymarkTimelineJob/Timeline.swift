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
    case trip(TimelineTrip, from: PlaceName, to: PlaceName)
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
