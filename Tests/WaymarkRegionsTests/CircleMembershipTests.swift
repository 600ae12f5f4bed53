import Testing
import WaymarkCore
import WaymarkRegions

struct CircleCase: CustomTestStringConvertible, Sendable {
    var latitude: Double
    var longitude: Double
    var radius: Double
    var testDescription: String { "(\(latitude), \(longitude)) r=\(radius) m" }
}

private let circleCases: [CircleCase] = [
    CircleCase(latitude: 0, longitude: 0, radius: 5),
    CircleCase(latitude: 48.137, longitude: 11.575, radius: 5),
    CircleCase(latitude: 48.137, longitude: 11.575, radius: 250),
    CircleCase(latitude: -33.86, longitude: 151.21, radius: 1_000),
    CircleCase(latitude: 64.15, longitude: -21.94, radius: 20_000),
    CircleCase(latitude: 78.22, longitude: 15.65, radius: 150_000),
    CircleCase(latitude: 0.5, longitude: 179.999, radius: 500),  // crosses the antimeridian
    CircleCase(latitude: 89.9995, longitude: 0, radius: 100),  // contains the pole
]

/// Points 1 cm inside and 1 cm outside the geodesic circle in 24 directions: only an exact
/// geodesic test separates them (the spherical estimate is off by up to 0.56 %).
@Test("circle membership 1 cm either side of the boundary", arguments: circleCases)
func circleBoundary(_ c: CircleCase) {
    let center = Coordinate(latitude: c.latitude, longitude: c.longitude)
    let index = RegionIndex(regions: [Region(identifier: "c", shape: .circle(center: center, radius: c.radius))])
    var result: [Int32] = []
    for k in 0..<24 {
        let azimuth = Double(k) * 15
        let inner = Geodesic.destination(from: center, azimuth: azimuth, distance: c.radius - 0.01)
        let outer = Geodesic.destination(from: center, azimuth: azimuth, distance: c.radius + 0.01)
        #expect(index.contains(regionAt: 0, inner), "azimuth \(azimuth) inner")
        #expect(!index.contains(regionAt: 0, outer), "azimuth \(azimuth) outer")
        index.containing(inner, into: &result)
        #expect(result == [0], "azimuth \(azimuth) inner via the tree")
        index.containing(outer, into: &result)
        #expect(result == [], "azimuth \(azimuth) outer via the tree")
    }
    #expect(index.contains(regionAt: 0, center))
}

@Test("a 5 m circle: centre in, 4.99 m in, 5.01 m out, 6 m out")
func tinyCircle() {
    let center = Coordinate(latitude: 52.52, longitude: 13.405)
    let index = RegionIndex(regions: [Region(identifier: "tiny", shape: .circle(center: center, radius: 5))])
    for (distance, inside) in [(0.0, true), (4.99, true), (5.01, false), (6.0, false), (50.0, false)] {
        let p = Geodesic.destination(from: center, azimuth: 33, distance: distance)
        #expect(index.contains(regionAt: 0, p) == inside, "\(distance) m")
    }
}

/// Where the spherical estimate and the ellipsoid differ most (north–south at the equator,
/// ~0.5 %), a point 0.3 % outside must still be outside and 0.3 % inside still inside.
@Test("the spherical pre-test defers to the geodesic distance near the boundary")
func sphericalMargin() {
    let center = Coordinate(latitude: 0, longitude: 30)
    let radius = 10_000.0
    let index = RegionIndex(regions: [Region(identifier: "eq", shape: .circle(center: center, radius: radius))])
    for azimuth in [0.0, 90, 180, 270] {
        #expect(index.contains(regionAt: 0, Geodesic.destination(from: center, azimuth: azimuth, distance: radius * 0.997)))
        #expect(!index.contains(regionAt: 0, Geodesic.destination(from: center, azimuth: azimuth, distance: radius * 1.003)))
    }
}
