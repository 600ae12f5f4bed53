import Foundation
import Testing
import WaymarkCore
import WaymarkRegions

/// The nearest regions to a point (`RegionIndex.nearest`), the window a phone holds
/// (`RegionWindow`) and the circles it is sent (`PhoneGeofence`).
@Suite struct RegionWindowTests {
    /// Circles, stars and squares with holes around `centre`, some straddling nothing but lying
    /// on both sides of the antimeridian when `centre` is near it.
    static func randomRegions(around centre: Coordinate, spread: Double, count: Int, seed: UInt64) -> [Region] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { i in
            let anchor = Geodesic.destination(from: centre, azimuth: rng.uniform(0...360), distance: rng.uniform(0...spread))
            let identifier = "r-" + String(i)
            switch i % 3 {
            case 0:
                return Region(identifier: identifier, shape: .circle(center: anchor, radius: rng.uniform(20...800)))
            case 1:
                return Region(identifier: identifier, shape: .polygons([Polygon(exterior: SyntheticRegions.star(anchor, &rng))]))
            default:
                // A square with a square hole; kept off the antimeridian so its edges stay short.
                let half = rng.uniform(0.002...0.01)
                let lon = min(max(anchor.longitude, -179.97), 179.97)
                func square(_ h: Double) -> [Coordinate] {
                    [(-h, -h), (h, -h), (h, h), (-h, h), (-h, -h)].map {
                        Coordinate(latitude: anchor.latitude + $0.1, longitude: lon + $0.0)
                    }
                }
                return Region(identifier: identifier, shape: .polygons([Polygon(exterior: square(half), holes: [square(half / 2)])]))
            }
        }
    }

    /// Every region measured, sorted by distance then identifier: what `nearest` must find.
    static func bruteForce(_ index: RegionIndex, _ count: Int, _ c: Coordinate) -> [RegionIndex.Neighbour] {
        let all = (0..<index.count).map { RegionIndex.Neighbour(index: $0, distance: index.distance(toRegionAt: $0, from: c)) }
            .filter { $0.distance.isFinite }
        return Array(all.sorted { ($0.distance, index.identifierRank(at: $0.index)) < ($1.distance, index.identifierRank(at: $1.index)) }.prefix(count))
    }

    @Test(arguments: [
        (Coordinate(latitude: 46.5, longitude: 8.0), UInt64(1)),
        (Coordinate(latitude: -16.8, longitude: 179.95), UInt64(2)),  // across the antimeridian
        (Coordinate(latitude: 69.5, longitude: -179.97), UInt64(3)),  // and far north, where longitude degrees are short
        (Coordinate(latitude: -45.0, longitude: 170.0), UInt64(4)),
    ])
    func nearestAgreesWithBruteForce(centre: Coordinate, seed: UInt64) {
        let regions = Self.randomRegions(around: centre, spread: 30_000, count: 600, seed: seed)
            + [Region(identifier: "beacon", shape: .beacon(BeaconIdentity(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!)))]
        let index = RegionIndex(regions: regions)
        var rng = SplitMix64(seed: seed &* 31)
        var inside = 0
        for probe in 0..<150 {
            // Query points from the centre out to beyond the regions, and points inside regions
            // (in a hole too): distance 0 must rank first.
            var c = Geodesic.destination(from: centre, azimuth: rng.uniform(0...360), distance: rng.uniform(0...45_000))
            if probe % 5 == 0, case .polygons(let polygons) = regions[(probe / 5 * 3 + 2) % 600].shape {
                c = polygons[0].holes[0][0]
            }
            for count in [1, 5, 21] {
                let found = index.nearest(count, to: c)
                let expected = Self.bruteForce(index, count, c)
                #expect(found == expected, "\(c), \(count)")
            }
            inside += index.nearest(1, to: c).first?.distance == 0 ? 1 : 0
        }
        #expect(inside > 0, "some probes inside a region")
        #expect(index.nearest(0, to: centre).isEmpty)
        // More than there are: every geographic region, never the beacon region.
        #expect(index.nearest(1000, to: centre).count == 600)
    }

    @Test func aPointInAHoleIsOutsideAndMeasuredToTheHolesEdge() {
        let ring = { (h: Double) in [(-h, -h), (h, -h), (h, h), (-h, h), (-h, -h)].map { Coordinate(latitude: $0.1, longitude: $0.0) } }
        let donut = Region(identifier: "donut", shape: .polygons([Polygon(exterior: ring(0.01), holes: [ring(0.005)])]))
        let index = RegionIndex(regions: [donut])
        // The hole's centre is 0.005° of latitude (≈ 552.9 m at the equator) from its nearest edges.
        let d = index.nearest(1, to: Coordinate(latitude: 0, longitude: 0)).first?.distance ?? -1
        #expect(abs(d - 552.9) < 1)
        #expect(index.nearest(1, to: Coordinate(latitude: 0.0075, longitude: 0)).first?.distance == 0)
    }

    /// 10,000 regions over a country: each query a few boxes of the tree, not a scan.
    @Test func nearestIsFastOnTenThousandRegions() {
        let regions = SyntheticRegions.country(seed: 7, count: 10_000, circles: .geodesic)
        let index = RegionIndex(regions: regions)
        var rng = SplitMix64(seed: 8)
        let box = SyntheticRegions.countryBox
        let points = (0..<2_000).map { _ in
            Coordinate(latitude: rng.uniform(box.minLatitude...box.maxLatitude), longitude: rng.uniform(box.minLongitude...box.maxLongitude))
        }
        for c in points.prefix(20) { #expect(index.nearest(21, to: c) == Self.bruteForce(index, 21, c)) }
        let clock = ContinuousClock()
        let elapsed = clock.measure { for c in points { _ = index.nearest(21, to: c) } }
        let perQuery = elapsed / points.count
        // A brute-force query measures all 10,000 (tens of milliseconds); the search a few dozen.
        #expect(perQuery < .milliseconds(1), "\(perQuery) per query")
        print("nearest 21 of 10,000 regions: \(perQuery) per query")
    }

    @Test func theWindowHoldsBeaconsThenTheNearestAndKnowsItsSafeRadius() throws {
        let centre = Coordinate(latitude: 47.0, longitude: 8.0)
        let regions = (0..<30).map { i in
            Region(identifier: "c\(i)", shape: .circle(center: Geodesic.destination(from: centre, azimuth: Double(i) * 12, distance: 1000 + Double(i) * 100), radius: 100))
        } + [Region(identifier: "home", shape: .circle(center: centre, radius: 50)),
             Region(identifier: "hall", shape: .beacon(BeaconIdentity(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!)))]
        let index = RegionIndex(regions: regions)
        let window = RegionWindow(around: centre, size: 5, index: index, beacons: [31])
        #expect(window.held.map { regions[$0].identifier } == ["hall", "home", "c0", "c1", "c2"])
        // The first left out: c3, 1,300 m away, 100 m radius.
        #expect(abs(window.safeRadius - 1200) < 1e-6)
        #expect(abs(window.clearance(moved: 200, uncertainty: 50) - 950) < 1e-6)
        // A window as large as the regions leaves nothing out.
        #expect(RegionWindow(around: centre, size: 40, index: index, beacons: [31]).safeRadius == .infinity)
        // More beacon regions than room: only they.
        #expect(RegionWindow(around: centre, size: 1, index: index, beacons: [31]).held == [31])
        #expect(RegionWindow(around: centre, size: 0, index: index, beacons: [31]).held.isEmpty)
    }

    @Test func phonesGetExactCirclesAsTheyAreAndTriggerCirclesAroundTheRest() throws {
        let c = Coordinate(latitude: 47.0, longitude: 8.0)
        let big = Region(identifier: "big", shape: .circle(center: c, radius: 150))
        #expect(PhoneGeofence.isExact(big))
        #expect(PhoneGeofence.circle(for: big) == EnclosingCircle(center: c, radius: 150))
        let small = Region(identifier: "small", shape: .circle(center: c, radius: 30))
        #expect(!PhoneGeofence.isExact(small))
        #expect(PhoneGeofence.circle(for: small) == EnclosingCircle(center: c, radius: 330))
        // Never below what a phone watches faithfully, whatever the margin.
        #expect(PhoneGeofence.circle(for: small, approachMargin: 10)?.radius == 100)
        var rng = SplitMix64(seed: 5)
        let star = Region(identifier: "star", shape: .polygons([Polygon(exterior: SyntheticRegions.star(c, &rng))]))
        let trigger = try #require(PhoneGeofence.circle(for: star))
        guard case .polygons(let polygons) = star.shape else { return }
        for vertex in polygons[0].exterior {
            #expect(Geodesic.distance(trigger.center, vertex) <= trigger.radius - PhoneGeofence.defaultApproachMargin + 1e-6)
        }
        let beacon = Region(identifier: "b", shape: .beacon(BeaconIdentity(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!)))
        #expect(PhoneGeofence.circle(for: beacon) == nil)
    }
}
