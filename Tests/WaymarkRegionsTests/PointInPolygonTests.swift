import Testing
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkTestSupport

/// A 10° square with a 2° square hole in the middle, a second square far away (one
/// MultiPolygon), a U shape (concave), and a right triangle with a diagonal edge.
private let squareWithHole = Region(
    identifier: "square",
    shape: .polygons([
        Polygon(
            exterior: ring([(0, 0), (10, 0), (10, 10), (0, 10)]),
            holes: [ring([(4, 4), (6, 4), (6, 6), (4, 6)])]),
        Polygon(exterior: ring([(20, 20), (30, 20), (30, 30), (20, 30)])),
    ]))
private let uShape = Region(
    identifier: "u", shape: .polygons([Polygon(exterior: ring([(0, 0), (10, 0), (10, 10), (7, 10), (7, 3), (3, 3), (3, 10), (0, 10)]))]))
private let triangle = Region(identifier: "triangle", shape: .polygons([Polygon(exterior: ring([(0, 0), (4, 0), (0, 4)]))]))

struct PointCase: CustomTestStringConvertible, Sendable {
    var region: Region
    var lon: Double
    var lat: Double
    var inside: Bool
    var why: String
    var testDescription: String { "\(region.identifier) (\(lon), \(lat)) \(why) → \(inside)" }
}

private let pointCases: [PointCase] = [
    PointCase(region: squareWithHole, lon: 2, lat: 5, inside: true, why: "inside"),
    PointCase(region: squareWithHole, lon: 11, lat: 5, inside: false, why: "outside to the east"),
    PointCase(region: squareWithHole, lon: 5, lat: -0.5, inside: false, why: "outside to the south"),
    PointCase(region: squareWithHole, lon: 5, lat: 5, inside: false, why: "in the hole"),
    PointCase(region: squareWithHole, lon: 4.5, lat: 5.5, inside: false, why: "in the hole"),
    PointCase(region: squareWithHole, lon: 25, lat: 25, inside: true, why: "in the MultiPolygon's second part"),
    PointCase(region: squareWithHole, lon: 15, lat: 15, inside: false, why: "between the parts"),
    PointCase(region: squareWithHole, lon: 0, lat: 0, inside: true, why: "on a vertex"),
    PointCase(region: squareWithHole, lon: 10, lat: 10, inside: true, why: "on the north-east vertex"),
    PointCase(region: squareWithHole, lon: 10, lat: 5, inside: true, why: "on the east edge"),
    PointCase(region: squareWithHole, lon: 0, lat: 5, inside: true, why: "on the west edge"),
    PointCase(region: squareWithHole, lon: 5, lat: 10, inside: true, why: "on the north edge"),
    PointCase(region: squareWithHole, lon: 5, lat: 0, inside: true, why: "on the south edge"),
    PointCase(region: squareWithHole, lon: 10.000_000_1, lat: 5, inside: false, why: "just east of the east edge"),
    PointCase(region: squareWithHole, lon: 5, lat: 10.000_000_1, inside: false, why: "just north of the north edge"),
    PointCase(region: squareWithHole, lon: 4, lat: 5, inside: true, why: "on the hole's edge (closed set)"),
    PointCase(region: squareWithHole, lon: 6, lat: 6, inside: true, why: "on the hole's vertex"),
    PointCase(region: squareWithHole, lon: 4.000_000_1, lat: 5, inside: false, why: "just inside the hole"),
    PointCase(region: squareWithHole, lon: 30, lat: 25, inside: true, why: "on the second part's east edge"),
    PointCase(region: uShape, lon: 5, lat: 5, inside: false, why: "in the concave notch"),
    PointCase(region: uShape, lon: 1.5, lat: 8, inside: true, why: "in the left arm"),
    PointCase(region: uShape, lon: 8.5, lat: 8, inside: true, why: "in the right arm"),
    PointCase(region: uShape, lon: 5, lat: 1.5, inside: true, why: "in the base"),
    PointCase(region: uShape, lon: 7, lat: 5, inside: true, why: "on the notch's east edge"),
    PointCase(region: uShape, lon: 5, lat: 3, inside: true, why: "on the notch's floor"),
    PointCase(region: uShape, lon: 5, lat: 10, inside: false, why: "on the notch's open top (not an edge)"),
    PointCase(region: uShape, lon: 3, lat: 10, inside: true, why: "on a reflex-side vertex"),
    PointCase(region: triangle, lon: 2, lat: 2, inside: true, why: "on the diagonal edge"),
    PointCase(region: triangle, lon: 1, lat: 1, inside: true, why: "inside"),
    PointCase(region: triangle, lon: 2.1, lat: 2, inside: false, why: "just beyond the diagonal"),
    PointCase(region: triangle, lon: -1, lat: 0, inside: false, why: "on the line of the south edge, outside it"),
    PointCase(region: triangle, lon: 5, lat: 0, inside: false, why: "east along the south edge's line"),
]

/// Every case through the brute-force path and through the banded path (forced on with a
/// threshold of 0), via both `contains(regionAt:)` and the R-tree query.
@Test("point in polygon", arguments: pointCases, [Int.max, 0])
func pointInPolygon(_ c: PointCase, bandingThreshold: Int) {
    let index = RegionIndex(regions: [c.region], bandingThreshold: bandingThreshold)
    let p = coordinate(c.lon, c.lat)
    #expect(index.contains(regionAt: 0, p) == c.inside)
    var result: [Int32] = []
    index.containing(p, into: &result)
    #expect(result == (c.inside ? [0] : []))
}

@Test("rings need not repeat their first position to be built")
func openRingIsClosed() {
    let open = Region(identifier: "open", shape: .polygons([Polygon(exterior: [coordinate(0, 0), coordinate(1, 0), coordinate(0, 1)])]))
    let index = RegionIndex(regions: [open])
    #expect(index.contains(regionAt: 0, coordinate(0.2, 0.2)))
    #expect(!index.contains(regionAt: 0, coordinate(0.8, 0.8)))
}

/// The banded path against the brute-force path and against PNPOLY, on random points in
/// every country's bounding box (Natural Earth 1:50m: rings of up to 4,574 positions).
@Test("banded rings agree with brute force on every country")
func bandedCountries() throws {
    let regions = try GeoJSONRegionLoader.load(
        paths: [ProjectPaths.sharedData("geojson/ne_50m_admin_0_countries.json").path], idProperty: "ADM0_A3")
    #expect(regions.count == 241)
    let banded = RegionIndex(regions: regions)
    let plain = RegionIndex(regions: regions, bandingThreshold: .max)
    #expect(banded.statistics.bandedRings > 100)
    #expect(plain.statistics.bandedRings == 0)
    var rng = SplitMix64(seed: 7)
    var disagreements: [String] = []
    var insideCount = 0
    for r in regions.indices {
        let box = banded.boundingBox(ofRegionAt: r)
        for _ in 0..<400 {
            let p = coordinate(
                Double.random(in: box.minLongitude...box.maxLongitude, using: &rng),
                Double.random(in: box.minLatitude...box.maxLatitude, using: &rng))
            let expected = Reference.contains(regions[r], p)
            let a = banded.contains(regionAt: r, p)
            let b = plain.contains(regionAt: r, p)
            if expected { insideCount += 1 }
            if a != expected || b != expected { disagreements.append("\(regions[r].identifier) \(p)") }
        }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    #expect(insideCount > 20_000)  // the test exercises insides, not just empty boxes
}
