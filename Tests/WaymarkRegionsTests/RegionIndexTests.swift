import Testing
import WaymarkCore
import WaymarkRegions

/// The R-tree's answers against testing every region with the reference implementations.
@Test("R-tree queries agree with brute force over all regions", arguments: [SyntheticRegions.CircleStyle.polygon32, .geodesic])
func treeAgreesWithBruteForce(_ style: SyntheticRegions.CircleStyle) {
    let regions = SyntheticRegions.city(seed: 42, count: 2_000, circles: style)
    let index = RegionIndex(regions: regions)
    let fixes = SyntheticFixes.uniform(in: SyntheticRegions.cityBox, count: 3_000, seed: 9)
    var result: [Int32] = []
    var memberships = 0
    var mismatches = 0
    for f in fixes {
        index.containing(f.coordinate, into: &result)
        let expected = Reference.containing(regions, f.coordinate)
        if result != expected { mismatches += 1 }
        memberships += result.count
    }
    #expect(mismatches == 0)
    #expect(memberships > 200)  // 2,000 regions cover about a fifth of the box at least once
}

/// Regions clustered in one corner of a wide extent crowd the grid's cells, whose points then
/// walk the tree; isolated regions elsewhere are answered from their cells. Both must agree
/// with brute force.
@Test("crowded grid cells and sparse ones agree with brute force")
func crowdedCellsAgreeWithBruteForce() {
    let cluster = SyntheticRegions.generate(
        in: BoundingBox(minLatitude: 48.0, minLongitude: 11.0, maxLatitude: 48.05, maxLongitude: 11.05), prefix: "dense",
        seed: 3, count: 600, circles: .polygon32)
    let spread = SyntheticRegions.generate(
        in: BoundingBox(minLatitude: 30, minLongitude: -20, maxLatitude: 60, maxLongitude: 40), prefix: "spread", seed: 4,
        count: 60, circles: .polygon32)
    let regions = cluster + spread
    let index = RegionIndex(regions: regions)
    let fixes =
        SyntheticFixes.uniform(in: BoundingBox(minLatitude: 48.0, minLongitude: 11.0, maxLatitude: 48.05, maxLongitude: 11.05), count: 3_000, seed: 5)
        + spread.prefix(20).flatMap { region in
            SyntheticFixes.uniform(in: index.boundingBox(ofRegionAt: regions.firstIndex { $0.identifier == region.identifier }!), count: 50, seed: 6)
        }
    var result: [Int32] = []
    var memberships = (cluster: 0, spread: 0)
    var mismatches: [Coordinate] = []
    for f in fixes {
        index.containing(f.coordinate, into: &result)
        if result != Reference.containing(regions, f.coordinate) { mismatches.append(f.coordinate) }
        for r in result { if r < 600 { memberships.cluster += 1 } else { memberships.spread += 1 } }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    #expect(memberships.cluster > 1_000 && memberships.spread > 300)
}

/// The core disc that answers inside points without an edge test must never cover the
/// outside: round 32-gons and stars far north (where a degree of longitude is a fifth of one of
/// latitude, so a disc not scaled for it pokes out), a U whose box centre lies in its notch, and
/// a sliver, against brute force on a lattice over each region's box.
@Test("core discs never reach outside their polygon")
func coreDiscsStayInside() {
    let north = SyntheticRegions.generate(
        in: BoundingBox(minLatitude: 78, minLongitude: 10, maxLatitude: 78.05, maxLongitude: 10.2), prefix: "north",
        seed: 11, count: 6, circles: .polygon32)
    let shapes: [[(Double, Double)]] = [
        [(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)],  // U: centre (1.5, 1.5) in the notch
        [(0, 0), (3, 0.001), (3, 0.002), (0, 0.001)],  // sliver
    ]
    let regions = north + shapes.enumerated().map { k, shape in
        Region(identifier: "shape-\(k)", shape: .polygons([Polygon(exterior: ring(shape))]))
    }
    let index = RegionIndex(regions: regions)
    var result: [Int32] = []
    var mismatches: [Coordinate] = []
    var inside = 0
    for r in regions.indices {
        let box = index.boundingBox(ofRegionAt: r)
        for i in 0..<80 {
            for j in 0..<80 {
                // Off the lattice of the vertices, so no point is exactly on an edge (where the
                // reference's half-open rule and the index's closed one differ by design).
                let c = Coordinate(
                    latitude: box.minLatitude + (box.maxLatitude - box.minLatitude) * (Double(j) + 0.41) / 80,
                    longitude: box.minLongitude + (box.maxLongitude - box.minLongitude) * (Double(i) + 0.37) / 80)
                index.containing(c, into: &result)
                let expected = Reference.containing(regions, c)
                if result != expected { mismatches.append(c) }
                if expected.contains(Int32(r)) { inside += 1 }
            }
        }
    }
    #expect(mismatches.count == 0, "\(mismatches.prefix(3))")
    #expect(inside > 20_000)
}

@Test("regions are enumerated in index order and results are ascending without duplicates")
func overlappingParts() {
    // One region of two overlapping squares (an invalid MultiPolygon, but it must not be
    // reported twice), and a circle covering both.
    let overlapping = Region(
        identifier: "b",
        shape: .polygons([
            Polygon(exterior: ring([(0, 0), (2, 0), (2, 2), (0, 2)])),
            Polygon(exterior: ring([(1, 1), (3, 1), (3, 3), (1, 3)])),
        ]))
    let circle = Region(identifier: "a", shape: .circle(center: coordinate(1.5, 1.5), radius: 500_000))
    let index = RegionIndex(regions: [circle, overlapping])
    var result: [Int32] = []
    index.containing(coordinate(1.5, 1.5), into: &result)
    #expect(result == [0, 1])
    index.containing(coordinate(2.5, 2.5), into: &result)
    #expect(result == [0, 1])
    index.containing(coordinate(10, 10), into: &result)
    #expect(result == [])
}

@Test("an empty index answers nothing")
func emptyIndex() {
    let index = RegionIndex(regions: [])
    var result: [Int32] = [7]
    index.containing(coordinate(0, 0), into: &result)
    #expect(result.isEmpty)
    #expect(index.count == 0)
}

@Test("synthetic data is reproducible from its seed")
func syntheticReproducible() {
    #expect(SyntheticRegions.city(seed: 1, count: 50) == SyntheticRegions.city(seed: 1, count: 50))
    #expect(SyntheticRegions.city(seed: 1, count: 50) != SyntheticRegions.city(seed: 2, count: 50))
    #expect(SyntheticFixes.uniform(in: SyntheticRegions.cityBox, count: 10, seed: 3)
        == SyntheticFixes.uniform(in: SyntheticRegions.cityBox, count: 10, seed: 3))
}
