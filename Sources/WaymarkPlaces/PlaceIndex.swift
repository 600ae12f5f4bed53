import WaymarkCore

/// A populated place from GeoNames: the nearest to a point (`PlaceIndex.lookup`).
public struct NamedPlace: Sendable, Equatable {
    public var name: String
    /// First-level administrative division (state, Land, region), when GeoNames gives one.
    public var admin1: String?
    /// ISO 3166-1 alpha-2.
    public var countryCode: String
    /// The country's common name (ISO 3166-1, Debian's iso-codes).
    public var country: String
    public var coordinate: Coordinate
    /// Metres from the point looked up.
    public var distance: Double

    public init(name: String, admin1: String?, countryCode: String, country: String, coordinate: Coordinate, distance: Double) {
        self.name = name
        self.admin1 = admin1
        self.countryCode = countryCode
        self.country = country
        self.coordinate = coordinate
        self.distance = distance
    }
}

/// What the offline reverse geocoder knows of a point.
public struct PlaceLookup: Sendable, Equatable {
    /// The nearest populated place (in the point's country when the time-zone boundaries place
    /// it in one); nil at sea.
    public var place: NamedPlace?
    /// The IANA time zone: a land zone's name, or `Etc/GMT±N` at sea (nautical zones).
    public var timeZone: String
    /// The point lies in no land time zone (open sea, beyond territorial waters).
    public var atSea: Bool

    public init(place: NamedPlace?, timeZone: String, atSea: Bool) {
        self.place = place
        self.timeZone = timeZone
        self.atSea = atSea
    }
}

/// The offline reverse geocoder: GeoNames' populated places and time-zone boundaries, read
/// from the place-data file the set-up builds (docs/places.md). Pure: bytes in, an index out.
///
/// SKELETON: the implementation lands with the index's own commit.
public struct PlaceIndex: Sendable {
    public init(bytes: [UInt8]) throws(PlaceDataError) {}

    public func lookup(_ coordinate: Coordinate) -> PlaceLookup { PlaceLookup(place: nil, timeZone: "UTC", atSea: true) }
}

/// A place-data file that cannot be read: what is wrong and where (byte offset).
public struct PlaceDataError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int?

    public init(_ message: String, offset: Int? = nil) {
        self.message = message
        self.offset = offset
    }

    public var description: String { offset.map { "\(message) (at byte \($0))" } ?? message }
}
