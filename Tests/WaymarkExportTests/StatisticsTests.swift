import Foundation
import Testing
import WaymarkCore
import WaymarkExport
import WaymarkTestSupport

@Suite struct StatisticsTests {
    static func statistics(_ fixes: [Fix], startsAt: Set<Int> = [0]) -> TrackStatistics {
        var accumulator = TrackStatisticsAccumulator()
        for (index, fix) in fixes.enumerated() { accumulator.add(fix, startsSegment: startsAt.contains(index)) }
        return accumulator.result
    }

    /// An hour's walk north at 1.4 m/s on flat ground at 300 m, with the altitude noise of a
    /// consumer receiver: a slow Gauss–Markov wander (σ 5 m, 120 s) plus 3 m of jitter per fix.
    static func flatNoisyWalk() -> [Fix] {
        var random = SplitMix64(seed: 3)
        var wander = 0.0
        let a = exp(-1.0 / 120)
        return (0..<3600).map { second in
            wander = a * wander + (1 - a * a).squareRoot() * 5 * random.nextGaussian()
            return fix(north: 1.4 * Double(second), seconds: Double(second), altitude: 300 + wander + 3 * random.nextGaussian())
        }
    }

    @Test func aFlatNoisyWalkDoesNotClimb() {
        let fixes = Self.flatNoisyWalk()
        let naive = zip(fixes, fixes.dropFirst()).reduce(0.0) { $0 + max(0, $1.1.altitude! - $1.0.altitude!) }
        #expect(naive > 300, "the noise must be bad enough to matter (naive gain \(naive) m)")
        let result = Self.statistics(fixes)
        #expect(result.elevationGain! < 80, "gain \(result.elevationGain!) m on flat ground")
        #expect(result.elevationLoss! < 80, "loss \(result.elevationLoss!) m on flat ground")
    }

    @Test func hillsWithNoiseClimbWhatTheTerrainClimbs() {
        // 8 km at 2 m per fix over hills of known shape, altitude jitter σ 2 m.
        func terrain(_ d: Double) -> Double { 500 + 60 * sin(d / 700) + 15 * sin(d / 150) }
        var random = SplitMix64(seed: 9)
        let fixes = (0..<4000).map { i in
            fix(north: Double(i) * 2, seconds: Double(i), altitude: terrain(Double(i) * 2) + 2 * random.nextGaussian())
        }
        var trueGain = 0.0
        var trueLoss = 0.0
        for i in 1..<8000 {
            let delta = terrain(Double(i)) - terrain(Double(i - 1))
            if delta > 0 { trueGain += delta } else { trueLoss -= delta }
        }
        let result = Self.statistics(fixes)
        #expect(abs(result.elevationGain! - trueGain) / trueGain < 0.12, "gain \(result.elevationGain!) vs \(trueGain)")
        #expect(abs(result.elevationLoss! - trueLoss) / trueLoss < 0.12, "loss \(result.elevationLoss!) vs \(trueLoss)")
    }

    /// The project's simulated ride follows the simulator's terrain, 60·sin(d/1700) +
    /// 25·sin(d/430 + 1) m over its 12.2 km, which climbs 238 m and descends 235 m.
    @Test func theSimulatedRideClimbsItsTerrain() throws {
        let points = try trackPoints(ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path)
        let result = Self.statistics(points.map(\.fix))
        #expect(abs(result.elevationGain! - 238.1) < 238.1 * 0.12, "gain \(result.elevationGain!)")
        #expect(abs(result.elevationLoss! - 234.7) < 234.7 * 0.15, "loss \(result.elevationLoss!)")
        // A 10-minute stop at the hut is not moving time.
        #expect(abs(result.movingTime! - (result.elapsedTime! - 600)) < 90, "moving \(result.movingTime!) of \(result.elapsedTime!) s")
    }

    /// Mojstrovka (a real hike) starts at its lowest point, 1614.7 m, and reaches 2057.4 m.
    @Test func aRealHikeClimbsAtLeastMostOfItsHeight() throws {
        let points = try trackPoints(ProjectPaths.sharedData("gpx/Mojstrovka.gpx").path)
        let result = Self.statistics(points.map(\.fix))
        #expect(result.elevationGain! >= 0.9 * (2057.37 - 1614.68))
        #expect(result.elevationGain! <= 2057.37 - 1614.68 + 60, "gain \(result.elevationGain!)")
        #expect(result.maximumElevation == 2057.36952)
    }

    @Test func movingTimeLeavesOutAStopDespiteJitter() {
        // 20 min at 1.2 m/s, 10 min standing still with 3 m of correlated position noise, 20 min on.
        var random = SplitMix64(seed: 5)
        var north = 0.0
        var east = 0.0
        let a = exp(-1.0 / 60)
        let fixes = (0..<3000).map { second -> Fix in
            north = a * north + (1 - a * a).squareRoot() * 3 * random.nextGaussian()
            east = a * east + (1 - a * a).squareRoot() * 3 * random.nextGaussian()
            let walked = 1.2 * Double(min(second, 1200) + max(0, second - 1800))
            return fix(north: walked + north, east: east + 100, seconds: Double(second))
        }
        let result = Self.statistics(fixes)
        #expect(abs(result.movingTime! - 2400) < 90, "moving \(result.movingTime!) s")
        #expect(result.elapsedTime == 2999)
        #expect(abs(result.averageMovingSpeed! - 1.2) < 0.3)
    }

    @Test func oneStrayFixDoesNotSetTheMaximumSpeed() {
        var fixes = (0..<120).map { fix(north: 5 * Double($0), seconds: Double($0)) }
        fixes[60] = fix(north: 5 * 60, east: 400, seconds: 60)
        let result = Self.statistics(fixes)
        #expect(result.maximumSpeed! < 5.5, "max \(result.maximumSpeed!) m/s")
        #expect(result.maximumSpeed! > 4.5)
    }

    @Test func distanceIsGeodesicAndNotCountedAcrossGaps() {
        let fixes = (0...10).map { fix(north: Double($0) * 100, seconds: Double($0) * 60) }
        #expect(abs(Self.statistics(fixes).distance - 1000) < 1e-6)
        let split = Self.statistics(fixes, startsAt: [0, 5])
        #expect(abs(split.distance - 900) < 1e-6)
        #expect(split.segments == 2)
    }

    @Test func untimedTracksHaveNoTimesOrSpeeds() {
        let result = Self.statistics((0...10).map { fix(north: Double($0) * 100, altitude: 400) })
        #expect(result.movingTime == nil && result.maximumSpeed == nil && result.elapsedTime == nil)
        #expect(result.elevationGain == 0)
        #expect(result.json.contains("\"movingTime\":null"))
    }

    struct GapCase: Sendable, CustomTestStringConvertible {
        var seconds: Double
        var metres: Double
        var startsPiece = false
        var splits: Bool
        var testDescription: String { "\(seconds) s, \(metres) m, piece \(startsPiece) → \(splits)" }
    }

    @Test(arguments: [
        GapCase(seconds: 300, metres: 5000, splits: false),
        GapCase(seconds: 301, metres: 5000, splits: true),
        GapCase(seconds: 3600, metres: 100, splits: false),
        GapCase(seconds: 3600, metres: 101, splits: true),
        GapCase(seconds: 1, metres: 1, startsPiece: true, splits: true),
    ])
    func theGapRule(_ gap: GapCase) {
        var segmenter = TrackSegmenter()
        let first = segmenter.startsSegment(TrackPoint(fix: fix(north: 0, seconds: 0)))
        let next = segmenter.startsSegment(TrackPoint(fix: fix(north: gap.metres, seconds: gap.seconds), startsPiece: gap.startsPiece))
        #expect(first)
        #expect(next == gap.splits)
    }

    @Test func untimedPointsSplitOnlyWhereTheInputDoes() {
        var segmenter = TrackSegmenter()
        let first = segmenter.startsSegment(TrackPoint(fix: fix(north: 0)))
        let far = segmenter.startsSegment(TrackPoint(fix: fix(north: 50_000)))
        #expect(first && !far)
    }
}
