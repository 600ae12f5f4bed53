import Foundation
import Testing
import WaymarkCore
import WaymarkPlaces

/// The index over the tiny synthetic sample (Samples/README.md): no installed data needed.
@Suite struct PlaceIndexSampleTests {
    static func sampleBytes() throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Samples/synthetic.bin")
        return [UInt8](try Data(contentsOf: url))
    }

    let index: PlaceIndex

    init() throws { index = try PlaceIndex(bytes: Self.sampleBytes()) }

    func lookup(_ latitude: Double, _ longitude: Double) -> PlaceLookup {
        index.lookup(Coordinate(latitude: latitude, longitude: longitude))
    }

    @Test func namesTheNearestPlaceWithItsAdmin1AndCountry() throws {
        let result = lookup(0.51, 0.52)
        #expect(result.timeZone == "Test/West")
        #expect(!result.atSea)
        let place = try #require(result.place)
        #expect(place.name == "Alder")
        #expect(place.admin1 == "North March")
        #expect(place.countryCode == "XA")
        #expect(place.country == "XA")  // a user-assigned code: no name in iso-codes
        #expect(abs(place.distance - 2_487) < 30)  // 0.01° × 0.02° at the equator
        #expect(lookup(0.4, 1.7).place?.admin1 == nil)  // Cobham Cross has no admin1
    }

    @Test func nearABorderTheCountryComesFromTheZone() {
        // Dunmere (XB) is 36 km away, Cobham Cross (XA) 54 km: the point is in Test/West, XA's.
        let west = lookup(0.8, 1.98)
        #expect(west.timeZone == "Test/West")
        #expect(west.place?.name == "Cobham Cross")
        let east = lookup(0.8, 2.02)
        #expect(east.timeZone == "Test/East")
        #expect(east.place?.name == "Dunmere")
    }

    @Test func aHoleAndTheOpenSeaAreAtSeaInTheLongitudesNauticalZone() {
        for result in [lookup(0.3, 1.15), lookup(5, 5), lookup(-0.01, 1), lookup(1, 4.01)] {
            #expect(result.atSea)
            #expect(result.place == nil)
            #expect(result.timeZone == "Etc/GMT")
        }
        #expect(lookup(-60, -100).timeZone == "Etc/GMT+7")
    }

    @Test func acrossTheAntimeridian() {
        for longitude in [179.5, 180, -180, -179.5] {
            #expect(lookup(10.5, longitude).timeZone == "Test/Dateline", "at \(longitude)")
        }
        // The nearest place lies across the antimeridian: Gullhaven, 0.31° away, not Farrow Point's 0.39°.
        let result = lookup(10.4, 179.99)
        #expect(result.place?.name == "Gullhaven")
        let across = Geodesic.sphericalDistance(Coordinate(latitude: 10.4, longitude: 179.99), Coordinate(latitude: 10.4, longitude: -179.7))
        #expect(abs((result.place?.distance ?? 0) - across) < 1)
        #expect(abs(across - 33_900) < 100)
        #expect(lookup(10.5, 179.7).place?.name == "Farrow Point")
        // Longitudes beyond ±180 wrap; non-finite input does not trap.
        #expect(lookup(10.5, 179.5 - 360).timeZone == "Test/Dateline")
        _ = lookup(.nan, .infinity)
    }

    /// The grid's cell-local test against the plain rule on seeded random points, cell
    /// boundaries (every 0.25°) included.
    @Test func agreesWithThePlainPointInPolygonRule() {
        var random = SplitMix64(seed: 41)
        var points = (0..<20_000).map { _ in
            (Double.random(in: -0.5...2.5, using: &random), Double.random(in: -0.5...4.5, using: &random))
        }
        points += stride(from: -0.5, through: 2.5, by: 0.25).flatMap { lat in stride(from: -0.5, through: 4.5, by: 0.125).map { (lat, $0) } }
        for (latitude, longitude) in points {
            let onAnEdge = [0, 2].contains(latitude) || [0, 2, 4].contains(longitude)
                || ([0.2, 0.4].contains(latitude) && (1...1.3).contains(longitude)) || ([1, 1.3].contains(longitude) && (0.2...0.4).contains(latitude))
            if onAnEdge { continue }
            let inHole = latitude > 0.2 && latitude < 0.4 && longitude > 1 && longitude < 1.3
            let expected: String? =
                latitude <= 0 || latitude >= 2 ? nil
                : longitude > 0 && longitude < 2 && !inHole ? "Test/West"
                : longitude > 2 && longitude < 4 ? "Test/East" : nil
            let result = lookup(latitude, longitude)
            #expect(result.atSea == (expected == nil), "\(latitude), \(longitude)")
            if let expected { #expect(result.timeZone == expected, "\(latitude), \(longitude)") }
        }
    }

    @Test(arguments: [
        (0.0, "Etc/GMT"), (7.5, "Etc/GMT"), (7.6, "Etc/GMT-1"), (-7.5, "Etc/GMT+1"), (-40, "Etc/GMT+3"),
        (172.5, "Etc/GMT-11"), (172.6, "Etc/GMT-12"), (180, "Etc/GMT-12"), (-180, "Etc/GMT-12"), (-179.99, "Etc/GMT+12"),
        (-172.5, "Etc/GMT+12"), (-172.4, "Etc/GMT+11"),
    ])
    func nauticalZones(longitude: Double, zone: String) {
        #expect(PlaceIndex.nauticalZone(longitude: longitude) == zone)
    }
}
