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
/// A point's time zone is the land zone whose (simplified) boundary holds it; in none, the
/// point is at sea and its zone the nautical one of its longitude. On land, the place is the
/// nearest (great-circle) of the zone's country when the zone lies in one country, else the
/// nearest of all — so near a border the country comes from the boundaries, not from
/// whichever town is closer.
public struct PlaceIndex: Sendable {
    private let storage: Storage

    /// Parses and indexes a place-data file's bytes; a malformed file throws a
    /// `PlaceDataError` with the byte offset of what is wrong.
    public init(bytes: [UInt8]) throws(PlaceDataError) {
        storage = Storage(try PlaceData(bytes: bytes))
    }

    public func lookup(_ coordinate: Coordinate) -> PlaceLookup {
        let data = storage.data
        let latitude = min(90, max(-90, coordinate.latitude.isFinite ? coordinate.latitude : 0))
        let longitude = Self.normalised(coordinate.longitude)
        // ±180 and ±90 are boundaries of the zones drawn to them: a hair inside, they are in them.
        let inside = (x: min(180 - 1e-9, max(-180 + 1e-9, longitude)), y: min(90 - 1e-9, max(-90 + 1e-9, latitude)))
        guard let zone = storage.zones.zone(longitude: inside.x, latitude: inside.y) else {
            return PlaceLookup(place: nil, timeZone: Self.nauticalZone(longitude: longitude), atSea: true)
        }
        let zoneCountry = data.zoneCountries[zone]
        let country = zoneCountry == PlaceData.none16 ? nil : Int(zoneCountry)
        let found = storage.places.nearest(latitude: latitude, longitude: longitude, country: country)
            ?? storage.places.nearest(latitude: latitude, longitude: longitude, country: nil)
        return PlaceLookup(
            place: found.map { place(at: $0, from: Coordinate(latitude: latitude, longitude: longitude)) },
            timeZone: data.strings[data.zoneNames[zone]], atSea: false)
    }

    /// Counts in the loaded data: places, land zones, boundary vertices.
    public var counts: (places: Int, zones: Int, vertices: Int) {
        (storage.data.placeNames.count, storage.data.zoneNames.count, storage.zones.vertexCount)
    }

    /// The nautical zone of a longitude at sea: 15° strips centred on multiples of 15°,
    /// `Etc/GMT-N` east of Greenwich (POSIX signs: GMT-1 is UTC+1), an eastern edge belonging
    /// to the strip west of it, as timezone-boundary-builder draws them; −180 is +180.
    public static func nauticalZone(longitude: Double) -> String {
        let longitude = normalised(longitude)
        let hours = longitude == -180 ? 12 : Int(((longitude - 7.5) / 15).rounded(.up))
        return hours == 0 ? "Etc/GMT" : hours > 0 ? "Etc/GMT-\(hours)" : "Etc/GMT+\(-hours)"
    }

    private static func normalised(_ longitude: Double) -> Double {
        guard longitude.isFinite else { return 0 }
        if (-180...180).contains(longitude) { return longitude }
        let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (wrapped < 0 ? wrapped + 360 : wrapped) - 180
    }

    private func place(at index: Int, from coordinate: Coordinate) -> NamedPlace {
        let data = storage.data
        let country = Int(data.placeCountries[index])
        let admin1 = data.placeAdmin1[index]
        let location = Coordinate(
            latitude: Double(data.placeLatitudes[index]) * 1e-7, longitude: Double(data.placeLongitudes[index]) * 1e-7)
        return NamedPlace(
            name: data.strings[data.placeNames[index]],
            admin1: admin1 == PlaceData.none32 ? nil : data.strings[admin1],
            countryCode: data.countryCodes[country],
            country: data.strings[data.countryNames[country]],
            coordinate: location,
            distance: Geodesic.sphericalDistance(coordinate, location))
    }

    /// The parsed tables and their indexes, shared by copies of the index.
    private final class Storage: Sendable {
        let data: PlaceData
        let zones: ZoneGrid
        let places: PlaceTree

        init(_ data: PlaceData) {
            zones = ZoneGrid(data)
            places = PlaceTree(
                latitudes: data.placeLatitudes, longitudes: data.placeLongitudes, countries: data.placeCountries,
                countryCount: data.countryCodes.count)
            var data = data
            // The ring table and vertices now live in the grid.
            data.rings = []
            data.longitudes = []
            data.latitudes = []
            self.data = data
        }
    }
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
