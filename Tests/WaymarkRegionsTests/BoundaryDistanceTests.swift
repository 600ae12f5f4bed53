import Testing
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkTestSupport

/// Distances to region boundaries, which decide hysteresis and accuracy.
@Suite struct BoundaryDistanceTests {
    @Test func circlesMeasureGeodesicallyFromTheEdge() {
        let centre = Coordinate(latitude: 46.05, longitude: 14.5)
        let index = RegionIndex(regions: [Region(identifier: "c", shape: .circle(center: centre, radius: 300))])
        for (offset, expected) in [(0.0, 300.0), (100, 200), (300, 0), (450, 150)] {
            let point = Geodesic.destination(from: centre, azimuth: 33, distance: offset)
            #expect(abs(index.distanceToBoundary(ofRegionAt: 0, from: point) - expected) < 1e-6)
        }
        #expect(index.characteristicSize(ofRegionAt: 0) == 300)
    }

    @Test func aSquaresSizeIsItsInscribedRadiusAndDistancesAreToTheNearestEdge() {
        // About 1.11 km on a side at the equator.
        let square = Region(identifier: "s", shape: .polygons([Polygon(exterior: ring([(0, 0), (0.01, 0), (0.01, 0.01), (0, 0.01)]))]))
        let index = RegionIndex(regions: [square])
        #expect(abs(index.characteristicSize(ofRegionAt: 0) - 556.6) < 2)
        #expect(abs(index.distanceToBoundary(ofRegionAt: 0, from: coordinate(0.005, 0.002)) - 221.1) < 0.5)
        // A limit stops the search: any answer at or above it means "at least that far".
        #expect(index.distanceToBoundary(ofRegionAt: 0, from: coordinate(0.005, 0.005), limit: 100) >= 100)
    }

    /// The nearest boundary of any region, searched outward (what power-aware sampling sleeps on),
    /// including one just across the antimeridian.
    @Test func theNearestBoundaryIsFoundNearAndAcrossTheAntimeridian() {
        let near = Region(identifier: "near", shape: .polygons([Polygon(exterior: ring([(0.01, 0), (0.02, 0), (0.02, 0.01), (0.01, 0.01)]))]))
        let far = Region(identifier: "far", shape: .circle(center: coordinate(1, 0.005), radius: 1000))
        let index = RegionIndex(regions: [near, far])
        // 0.005° ≈ 556.6 m west of the square's west edge.
        #expect(abs(index.distanceToNearestBoundary(from: coordinate(0.005, 0.005), limit: 50_000) - 556.6) < 1)
        // Nothing within the limit: the limit.
        #expect(index.distanceToNearestBoundary(from: coordinate(-3, 0.005), limit: 5_000) == 5_000)
        // A square east of the antimeridian, its west edge 0.002° (≈ 222.6 m) from a point at 179.999.
        let across = Region(
            identifier: "across", shape: .polygons([Polygon(exterior: ring([(-179.999, 0), (-179.99, 0), (-179.99, 0.01), (-179.999, 0.01)]))]))
        let seam = RegionIndex(regions: [across])
        #expect(abs(seam.distanceToNearestBoundary(from: coordinate(179.999, 0.005), limit: 50_000) - 222.6) < 1)
        #expect(abs(seam.distanceToBoundary(ofRegionAt: 0, from: coordinate(179.999, 0.005)) - 222.6) < 1)
    }

    /// Canada in Natural Earth 1:50m has 11,573 vertices: the banded search must give exactly
    /// the brute-force answer near its boundary.
    @Test func aHugePolygonsBandedSearchAgreesWithBruteForce() throws {
        let countries = try GeoJSONRegionLoader.load(
            paths: [ProjectPaths.sharedData("geojson/ne_50m_admin_0_countries.json").path], idProperty: "ADM0_A3")
        let canada = try #require(countries.first { $0.identifier == "CAN" })
        guard case .polygons(let polygons) = canada.shape else { Issue.record("not polygons"); return }
        #expect(polygons.reduce(0) { $0 + $1.exterior.count + $1.holes.reduce(0) { $0 + $1.count } } > 10_000)
        let banded = RegionIndex(regions: [canada])
        let bruteForce = RegionIndex(regions: [canada], bandingThreshold: .max)
        #expect(banded.statistics.bandedRings > 0)
        var random = SplitMix64(seed: 3)
        let vertices = polygons.flatMap(\.exterior)
        for _ in 0..<400 {
            let vertex = vertices[Int.random(in: 0..<vertices.count, using: &random)]
            let point = Geodesic.destination(
                from: vertex, azimuth: Double.random(in: 0..<360, using: &random), distance: Double.random(in: 0...400, using: &random))
            for limit in [50.0, 200, 1000] {
                let a = banded.distanceToBoundary(ofRegionAt: 0, from: point, limit: limit)
                let b = bruteForce.distanceToBoundary(ofRegionAt: 0, from: point, limit: limit)
                #expect(a == b || (a >= limit && b >= limit), "\(point) limit \(limit): banded \(a), brute force \(b)")
            }
            // Never further than the vertex it was placed near.
            #expect(banded.distanceToBoundary(ofRegionAt: 0, from: point) <= Geodesic.distance(vertex, point) * 1.01 + 0.01)
        }
    }
}
