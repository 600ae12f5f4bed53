import Foundation
import Testing
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkSources
import WaymarkStore
import WaymarkTestSupport

/// The in-memory engine must say what SpatiaLite says: for real tracks against real regions,
/// fix by fix, the set of containing regions from `RegionIndex` equals the set from
/// `ST_Contains` (polygons) and geodesic `ST_Distance` (circles) on the same stored data.
@Suite struct EngineAgreementTests {
    /// Region files and the property that names their features uniquely.
    static let regionFiles: [(file: String, idProperty: String?)] = [
        ("ne_10m_parks_and_protected_lands_area.json", "unit_code"),
        ("ne_50m_urban_areas.json", nil),
        ("manhattan.geojson", "name"),
        ("new-york-city-boroughs.geojson", "name"),
        ("ne_50m_admin_0_countries.json", "ADM0_A3"),
    ]

    static func timedTracks() throws -> [URL] {
        try ProjectPaths.sharedGPXFiles().filter { !$0.lastPathComponent.contains("without-times") }
    }

    static func fixes(of track: URL) throws -> [Fix] {
        var source = try GPXFixSource(path: track.path)
        var fixes: [Fix] = []
        while let fix = try source.next() { fixes.append(fix) }
        return fixes
    }

    /// Evenly spaced fixes, at most `limit`: SpatiaLite answers a few hundred queries per second
    /// against country-sized polygons, so the reference sees a sample of every track.
    static func sample(_ fixes: [Fix], limit: Int) -> [Fix] {
        guard fixes.count > limit else { return fixes }
        return (0..<limit).map { fixes[$0 * fixes.count / limit] }
    }

    /// Circles along a track: centred on its points and just beside them, 5 m to 2 km.
    static func circles(along fixes: [Fix], count: Int, seed: UInt64) -> [Region] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { i in
            let fix = fixes[Int.random(in: 0..<fixes.count, using: &random)]
            let radius = [5.0, 50, 200, 2000][i % 4] * Double.random(in: 0.5...1.5, using: &random)
            let center = Geodesic.destination(
                from: fix.coordinate, azimuth: Double.random(in: 0..<360, using: &random),
                distance: Double.random(in: 0...(radius * 1.2), using: &random))
            return Region(identifier: "circle-\(i)", shape: .circle(center: center, radius: radius))
        }
    }

    static func disagreements(regions: [Region], fixes: [Fix], store: WaymarkStore) throws -> [String] {
        let index = RegionIndex(regions: regions)
        var inside: [Int32] = []
        var problems: [String] = []
        for fix in fixes {
            index.containing(fix.coordinate, into: &inside)
            let engine = Set(inside.map { index.identifier(at: Int($0)) })
            let reference = Set(try store.containingRegionIdentifiers(fix.coordinate))
            if engine != reference {
                problems.append("\(fix.coordinate.latitude),\(fix.coordinate.longitude): engine \(engine.sorted()) SpatiaLite \(reference.sorted())")
            }
        }
        return problems
    }

    @Test(arguments: regionFiles.map(\.file))
    func engineAgreesWithSpatiaLiteOnEveryTimedTrack(file: String) throws {
        let idProperty = Self.regionFiles.first { $0.file == file }!.idProperty
        let regions = try GeoJSONRegionLoader.load(
            paths: [ProjectPaths.sharedData("geojson/" + file).path], idProperty: idProperty,
            unnamedFeatures: .numberByIndex)
        let store = try WaymarkStore.temporary(logger: quietLogger)
        let report = try store.importRegions(regions, replace: false, skipInvalid: true)
        let stored = try store.regions()
        #expect(stored.count == regions.count - report.rejected.count)
        let limit = file.contains("countries") ? 60 : 400
        for track in try Self.timedTracks() {
            let fixes = Self.sample(try Self.fixes(of: track), limit: limit)
            let problems = try Self.disagreements(regions: stored, fixes: fixes, store: store)
            #expect(problems.isEmpty, "\(track.lastPathComponent) × \(file): \(problems.prefix(5))")
        }
    }

    @Test func circlesAlongEachTrackAgreeWithGeodesicDistanceInSpatiaLite() throws {
        for (number, track) in try Self.timedTracks().enumerated() {
            let fixes = try Self.fixes(of: track)
            let circles = Self.circles(along: fixes, count: 40, seed: UInt64(number))
            let store = try WaymarkStore.temporary(logger: quietLogger)
            try store.importRegions(circles, replace: false)
            let problems = try Self.disagreements(
                regions: try store.regions(), fixes: Self.sample(fixes, limit: 500), store: store)
            #expect(problems.isEmpty, "\(track.lastPathComponent): \(problems.prefix(5))")
        }
    }

    @Test func tcxtestAgreesAroundItsCrossingsFixByFix() throws {
        // Every fix, not a sample, where the transitions happen.
        let regions = try GeoJSONRegionLoader.load(
            paths: [ProjectPaths.sharedData("geojson/ne_10m_parks_and_protected_lands_area.json").path],
            idProperty: "unit_code")
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.importRegions(regions, replace: false)
        let fixes = try Self.fixes(of: ProjectPaths.sharedData("gpx/tcxtest.gpx"))
        let problems = try Self.disagreements(regions: try store.regions(), fixes: fixes, store: store)
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }
}
