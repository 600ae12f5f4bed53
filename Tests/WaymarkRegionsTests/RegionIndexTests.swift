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
