import Testing
import WaymarkCore
import WaymarkPlaces

/// The installed world data at known places, near borders, at sea and across the antimeridian.
@Suite struct PlaceIndexWorldTests {
    let index: PlaceIndex

    init() throws { index = try InstalledPlaceData.index.get() }

    func lookup(_ latitude: Double, _ longitude: Double) -> PlaceLookup {
        index.lookup(Coordinate(latitude: latitude, longitude: longitude))
    }

    @Test(arguments: [
        // latitude, longitude, place, admin1, country code, country, zone
        (52.5244, 13.4105, "Berlin", "Berlin", "DE", "Germany", "Europe/Berlin"),
        (40.78, -73.97, "Manhattan", "New York", "US", "United States", "America/New_York"),
        (-33.87, 151.21, "Sydney", "New South Wales", "AU", "Australia", "Australia/Sydney"),
        (35.69, 139.69, "Tokyo", "Tokyo", "JP", "Japan", "Asia/Tokyo"),
        (64.135, -21.895, "Reykjavik", "Capital Region", "IS", "Iceland", "Atlantic/Reykjavik"),
        // Asia/Bangkok holds northern Vietnam too (zone.tab names only Thailand for it): Hanoi's
        // country is its places', not the zone's first.
        (21.03, 105.85, "Hoan Kiem", "Ha Noi", "VN", "Vietnam", "Asia/Bangkok"),
    ])
    func knownPlaces(latitude: Double, longitude: Double, name: String, admin1: String, code: String, country: String, zone: String) throws {
        let result = lookup(latitude, longitude)
        let place = try #require(result.place)
        #expect(place.name == name)
        #expect(place.admin1 == admin1)
        #expect(place.countryCode == code)
        #expect(place.country == country)
        #expect(place.distance < 3_000)
        #expect(result.timeZone == zone)
        #expect(!result.atSea)
    }

    @Test(arguments: [
        // Basel, Weil am Rhein and Saint-Louis meet at the Dreiländereck.
        (47.5596, 7.5886, "CH", "Europe/Zurich"),
        (47.5950, 7.6100, "DE", "Europe/Berlin"),
        (47.5900, 7.5600, "FR", "Europe/Paris"),
        // Strasbourg and Kehl face each other across the Rhine.
        (48.5734, 7.7521, "FR", "Europe/Paris"),
        (48.5720, 7.8150, "DE", "Europe/Berlin"),
        // El Paso and Ciudad Juárez: one city across the Rio Grande, two countries, two zones.
        (31.7619, -106.4850, "US", "America/Denver"),
        (31.7200, -106.4600, "MX", "America/Ciudad_Juarez"),
    ])
    func nearBorders(latitude: Double, longitude: Double, code: String, zone: String) {
        let result = lookup(latitude, longitude)
        #expect(result.place?.countryCode == code)
        #expect(result.timeZone == zone)
    }

    @Test(arguments: [
        (30.0, -40.0, "Etc/GMT+3"),  // mid-Atlantic
        (0.0, -179.9, "Etc/GMT+12"),  // mid-Pacific, just east of the antimeridian
        (0.0, 179.9, "Etc/GMT-12"),  // and just west of it
        (-45.0, 90.0, "Etc/GMT-6"),  // southern Indian Ocean
    ])
    func atSea(latitude: Double, longitude: Double, zone: String) {
        let result = lookup(latitude, longitude)
        #expect(result.atSea)
        #expect(result.place == nil)
        #expect(result.timeZone == zone)
    }

    @Test(arguments: [
        // Fiji lies across the antimeridian: Suva, and Lau islands east of it.
        (-18.1416, 178.4419, "FJ", "Pacific/Fiji"),
        (-17.2, -178.9, "FJ", "Pacific/Fiji"),
        // Kiribati too: Tarawa west of it, Kanton and Kiritimati east of it, three zones.
        (1.3290, 172.9790, "KI", "Pacific/Tarawa"),
        (-2.8100, -171.6700, "KI", "Pacific/Kanton"),
        (1.8700, -157.4000, "KI", "Pacific/Kiritimati"),
    ])
    func acrossTheAntimeridian(latitude: Double, longitude: Double, code: String, zone: String) {
        let result = lookup(latitude, longitude)
        #expect(result.place?.countryCode == code)
        #expect(result.timeZone == zone)
        #expect(!result.atSea)
    }
}
