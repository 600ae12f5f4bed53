import Testing
import WaymarkCore

/// `Geodesic.isWithin` answers exactly as the geodesic does, though it mostly decides on the
/// spherical estimate: random pairs at every latitude, and pairs placed on the threshold itself.
@Suite struct GeodesicIsWithinTests {
    @Test func agreesWithTheGeodesicEverywhere() {
        var random = SplitMix64(seed: 41)
        for _ in 0..<20_000 {
            let a = Coordinate(latitude: random.uniform(-89...89), longitude: random.uniform(-180...180))
            let metres = [5.0, 100, 1_000, 60_000][Int(random.next() % 4)]
            let b = Geodesic.destination(from: a, azimuth: random.uniform(0...360), distance: metres * random.uniform(0.99...1.01))
            #expect(Geodesic.isWithin(a, b, metres: metres) == (Geodesic.distance(a, b) <= metres))
        }
    }

    @Test func onTheThresholdTheGeodesicDecides() {
        // North–south at the equator, where the sphere and the ellipsoid differ most (0.5 %).
        let a = Coordinate(latitude: 0, longitude: 10)
        let b = Geodesic.destination(from: a, azimuth: 0, distance: 100)
        let exact = Geodesic.distance(a, b)
        #expect(Geodesic.isWithin(a, b, metres: exact))
        #expect(!Geodesic.isWithin(a, b, metres: exact.nextDown))
        #expect(abs(Geodesic.sphericalDistance(a, b) - exact) > 0.1, "the estimate alone would answer wrongly here")
    }
}
