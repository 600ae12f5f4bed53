import WaymarkCore

/// A monitored region (docs/semantics.md §3): a geographic area — a circle by geodesic distance, or
/// polygons with straight edges in longitude/latitude as GeoJSON (RFC 7946) defines them — or a
/// beacon region, the neighbourhood of iBeacons. `RegionMonitor` watches the geographic ones,
/// `BeaconMonitor` (WaymarkBeacons) the beacon ones; both share identifiers, options and the store.
public struct Region: Sendable, Equatable {
    /// The user's name for the region, unique within a store.
    public var identifier: String
    public var shape: RegionShape
    /// The source feature's `properties`, kept as JSON text so nothing is lost on import.
    public var propertiesJSON: String?
    /// Notification flags, dwell, hysteresis: read from `properties` (see `RegionOptions`).
    public var options: RegionOptions

    public init(identifier: String, shape: RegionShape, propertiesJSON: String? = nil, options: RegionOptions = RegionOptions()) {
        self.identifier = identifier
        self.shape = shape
        self.propertiesJSON = propertiesJSON
        self.options = options
    }
}

/// The geometry of a region.
public enum RegionShape: Sendable, Equatable {
    /// Every point within `radius` metres (WGS84 geodesic distance) of `center`.
    case circle(center: Coordinate, radius: Double)
    /// The union of the polygons (a GeoJSON Polygon is one, a MultiPolygon several).
    case polygons([Polygon])
    /// Wherever an iBeacon matching the identity is heard (no geometry: a GeoJSON feature with
    /// `geometry: null` and `properties.beacon`).
    case beacon(BeaconIdentity)
}

extension Region {
    /// The beacon identity of a beacon region; nil for a geographic one.
    public var beacon: BeaconIdentity? {
        if case .beacon(let identity) = shape { return identity }
        return nil
    }

    /// Whether the region is an area on the map (a circle or polygons), not a beacon region.
    public var isGeographic: Bool { beacon == nil }
}

/// A polygon with an exterior ring and zero or more holes. Rings are closed: the first
/// coordinate equals the last, as GeoJSON requires.
public struct Polygon: Sendable, Equatable {
    public var exterior: [Coordinate]
    public var holes: [[Coordinate]]

    public init(exterior: [Coordinate], holes: [[Coordinate]] = []) {
        self.exterior = exterior
        self.holes = holes
    }
}

extension Array where Element == Region {
    /// The geographic regions (circles and polygons), without copying the array when there is
    /// nothing to leave out: with 10,000 regions a copy is a megabyte and a half.
    public var geographic: [Region] {
        allSatisfy(\.isGeographic) ? self : filter(\.isGeographic)
    }
}
