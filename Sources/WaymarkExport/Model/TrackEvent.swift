import WaymarkCore

/// Something that happened on the track, shown as a waypoint, a point feature, a placemark or a
/// marker: a region transition, a visit's arrival or departure, a significant change.
public struct TrackEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The first fix inside a region (region monitoring).
        case enter
        /// The first fix outside a region that held the previous fix.
        case exit
        /// A visit began (the visits service): stamped with the stay's first fix.
        case arrival
        /// A visit ended: stamped with the last fix at the place.
        case departure
        /// The significant-change service delivered a location (≥ 500 m and ≥ 300 s on).
        case significantChange
        /// Any other recorded event kind (kept with its own name).
        case other
    }

    public var kind: Kind
    public var time: Timestamp?
    public var coordinate: Coordinate
    public var altitude: Double?
    /// The region's identifier, for `enter` and `exit`.
    public var region: String?
    /// A short label, e.g. `Enter forest`, `Arrival 2`, `Significant change 3`.
    public var name: String
    /// One sentence for people, e.g. `Entered region forest at 2026-06-01T08:05:32Z.`
    public var description: String
    /// The machine-readable type written with it (GPX `type`, GeoJSON `kind`): the `Kind`'s raw
    /// value, or the recorded kind for `other`.
    public var type: String

    public init(
        kind: Kind, time: Timestamp?, coordinate: Coordinate, altitude: Double? = nil, region: String? = nil,
        name: String, description: String, type: String? = nil
    ) {
        self.kind = kind
        self.time = time
        self.coordinate = coordinate
        self.altitude = altitude
        self.region = region
        self.name = name
        self.description = description
        self.type = type ?? kind.rawValue
    }
}
