import Foundation
import Testing
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkTestSupport

/// Throughput measurements, run on demand in a release build:
/// `WAYMARK_BENCH=1 swift test -c release --filter RegionBenchmark`.
/// Off by default: timings on a shared two-core machine are not a pass/fail signal for CI.
@Suite("RegionBenchmark", .serialized, .enabled(if: ProcessInfo.processInfo.environment["WAYMARK_BENCH"] != nil))
struct RegionBenchmarkTests {
    func report(_ name: String, _ r: RegionBenchmark.Result, regions: Int) {
        print(
            "bench \(name): \(regions) regions, \(r.fixes) fixes, \(Int(r.fixesPerSecond)) fixes/s, "
                + "\(String(format: "%.2f", Double(r.memberships) / Double(r.fixes))) regions/fix, "
                + "\(r.transitions) transitions, build \(String(format: "%.3f", r.buildSeconds)) s, "
                + "\(Int(r.bytesPerRegion)) bytes/region, wall \(Int(Double(r.fixes) / r.seconds)) fixes/s")
    }

    @Test(arguments: [SyntheticRegions.CircleStyle.polygon32, .geodesic])
    func city(_ style: SyntheticRegions.CircleStyle) {
        let regions = SyntheticRegions.city(seed: 1, count: 10_000, circles: style)
        let fixes = SyntheticFixes.uniform(in: SyntheticRegions.cityBox, count: 100_000, seed: 2)
        _ = RegionBenchmark.run(regions: regions, fixes: fixes)  // warm-up
        let r = RegionBenchmark.run(regions: regions, fixes: fixes)
        report("city \(style)", r, regions: regions.count)
        let index = RegionIndex(regions: regions)
        var result: [Int32] = []
        var total = 0
        let start = RegionBenchmark.threadCPUTime()
        for f in fixes {
            index.containing(f.coordinate, into: &result)
            total += result.count
        }
        print("bench city \(style) query only: \(Int(Double(fixes.count) / (RegionBenchmark.threadCPUTime() - start))) fixes/s, \(total)")
        #expect(r.fixesPerSecond > 1_000_000)
    }

    @Test(arguments: [SyntheticRegions.CircleStyle.polygon32, .geodesic])
    func country(_ style: SyntheticRegions.CircleStyle) {
        let regions = SyntheticRegions.country(seed: 1, count: 10_000, circles: style)
        let fixes = SyntheticFixes.uniform(in: SyntheticRegions.countryBox, count: 1_000_000, seed: 2)
        _ = RegionBenchmark.run(regions: regions, fixes: fixes)
        let r = RegionBenchmark.run(regions: regions, fixes: fixes)
        report("country \(style)", r, regions: regions.count)
        #expect(r.fixesPerSecond > 5_000_000)
    }

    @Test func urbanAreas() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let regions = try GeoJSONRegionLoader.load(
            paths: [ProjectPaths.sharedData("geojson/ne_50m_urban_areas.json").path], unnamedFeatures: .numberByIndex)
        print("bench urban: load \(clock.now - start)")
        // Uniform over the world, and uniform over the box of the contiguous United States.
        let world = SyntheticFixes.uniform(in: .world, count: 1_000_000, seed: 3)
        let usa = SyntheticFixes.uniform(
            in: BoundingBox(minLatitude: 25, minLongitude: -125, maxLatitude: 49, maxLongitude: -67), count: 1_000_000, seed: 4)
        _ = RegionBenchmark.run(regions: regions, fixes: world)
        report("urban world", RegionBenchmark.run(regions: regions, fixes: world), regions: regions.count)
        report("urban usa", RegionBenchmark.run(regions: regions, fixes: usa), regions: regions.count)
    }

    @Test func countries() throws {
        let clock = ContinuousClock()
        let path = ProjectPaths.sharedData("geojson/ne_50m_admin_0_countries.json").path
        let bytes = [UInt8](FileManager.default.contents(atPath: path)!)
        var start = clock.now
        _ = try JSONParser.parse(bytes)
        let parse = clock.now - start
        start = clock.now
        let regions = try GeoJSONRegionLoader.load(paths: [path], idProperty: "ADM0_A3")
        let load = clock.now - start
        print("bench countries: parse \(parse), load \(load)")
        #expect(load < .seconds(1))
        let world = SyntheticFixes.uniform(in: .world, count: 1_000_000, seed: 3)
        _ = RegionBenchmark.run(regions: regions, fixes: world)
        report("countries world", RegionBenchmark.run(regions: regions, fixes: world), regions: regions.count)
        let index = RegionIndex(regions: regions)
        print("bench countries: \(index.statistics)")
    }
}
