import Foundation
import Logging
import WaymarkCore
import WaymarkRegions
import WaymarkStore

/// The same membership question asked of SpatiaLite, one query per fix: the baseline
/// `waymark bench regions --spatialite-baseline` compares the engine against, in the same run.
enum SpatiaLiteBaseline {
    struct Result {
        var fixes: Int
        var seconds: Double
        /// Fixes for which SpatiaLite and the engine name the same regions.
        var agreeing: Int
        var fixesPerSecond: Double { Double(fixes) / seconds }
    }

    static func run(regions: [Region], fixes: [Fix]) throws -> Result {
        var logger = Logger(label: "waymark.bench")
        logger.logLevel = .error
        // A real file, reopened after the import: SpatiaLite answers far more slowly on the
        // connection that created the schema (docs/platform.md), and users query files.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("regions.sqlite").path
        try WaymarkStore(path: path, logger: logger).importRegions(regions, replace: true, skipInvalid: true)
        let store = try WaymarkStore(path: path, logger: logger)
        let index = RegionIndex(regions: regions)
        var engineAnswer: [Int32] = []
        var answers: [[String]] = []
        answers.reserveCapacity(fixes.count)
        let clock = ContinuousClock()
        let start = clock.now
        for fix in fixes { answers.append(try store.containingRegionIdentifiers(fix.coordinate)) }
        let elapsed = clock.now - start
        var agreeing = 0
        for (fix, answer) in zip(fixes, answers) {
            index.containing(fix.coordinate, into: &engineAnswer)
            if Set(engineAnswer.map { index.identifier(at: Int($0)) }) == Set(answer) { agreeing += 1 }
        }
        return Result(
            fixes: fixes.count,
            seconds: elapsed.inSeconds,
            agreeing: agreeing)
    }
}

extension Region {
    /// Points spanning the region's extent (a circle's centre stands for it), for placing
    /// random fixes over a set of regions.
    var corners: [Coordinate] {
        switch shape {
        case .circle(let center, _):
            return [center]
        case .polygons(let polygons):
            return polygons.flatMap(\.exterior)
        case .beacon:
            return []
        }
    }
}
