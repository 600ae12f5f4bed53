import Testing
import WaymarkCore
import WaymarkReplay
import WaymarkSimulation
import WaymarkSources
import WaymarkTestSupport
import WaymarkRegions

/// The region engine on the error real phones have (issue 38, docs/semantics.md §3.3): σ = 30 m
/// horizontal error, wandering or independent, 1 % outliers of 150–300 m, with honest accuracy. Seeds are pinned so a failure reproduces; `waymark bench noise` runs the same
/// scenarios over many seeds (BENCHMARKS.md, "Region events on noisy fixes").
@Suite struct NoisyRegionEventsTests {
    /// The figure is with honest accuracy; without any, wandering error is measured,
    /// not promised (BENCHMARKS.md).
    @Test(arguments: [(60.0, true), (0.0, true), (0.0, false)])
    func aDeviceLyingInsideAZoneForADayNeverLeavesIt(correlation: Double, accuracy: Bool) {
        let scenario = NoiseScenario.stationary()
        let noise = FixNoise(sigma: 30, correlationTime: correlation, outlierRate: 0.01, reportsAccuracy: accuracy, seed: 7)
        let score = NoiseScore(scenario, fixes: noise.apply(to: scenario.truth))
        // The establishing fix may fall outside (it is one noisy fix): an entry that puts the
        // state right is no flip; nothing may change once it is right.
        #expect(score.flips == 0 && score.restsRight == 1, "\(score)")
        #expect(score.transitions <= 1, "\(score)")
    }

    @Test(arguments: [(60.0, true, 1800.0), (0.0, true, 900.0)])
    func twoSmallZonesApartAreDecidedWithoutFlipping(correlation: Double, accuracy: Bool, rest: Double) {
        let scenario = NoiseScenario.twoZones(rest: rest)
        let noise = FixNoise(sigma: 30, correlationTime: correlation, outlierRate: 0.01, reportsAccuracy: accuracy, seed: 3)
        let score = NoiseScore(scenario, fixes: noise.apply(to: scenario.truth))
        #expect(score.flips == 0, "\(score)")
        #expect(score.restsRight == score.rests, "\(score)")
    }
}

/// Recorded tracks with σ = 15 m of wandering error and 0.5 % outliers added (issue 38). The
/// issue asks that every crossing the clean track holds 30 s (and 30 m deep) is still reported
/// and nothing else; that is not reached yet (BENCHMARKS.md, "Region events on noisy fixes": a
/// crossing held barely 30 s has a 10 s window for a fix clear of the edge by its accuracy).
/// These bounds are today's figures, so the engine cannot silently get worse.
@Suite struct RecordedNoisyRegionEventsTests {
    static func timedTracks() throws -> [String] {
        try ProjectPaths.sharedGPXFiles().map(\.path) + [ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path]
    }

    @Test(arguments: try timedTracks())
    func heldCrossingsSurviveTheNoise(_ path: String) throws {
        var source = try GPXFixSource(path: path)
        var fixes: [Fix] = []
        while let fix = try source.next() { fixes.append(fix) }
        guard !fixes.isEmpty, fixes.allSatisfy({ $0.time != nil }) else { return }
        let regions = RegionsAlongTrack(seed: 5, perKilometre: 2).regions(along: fixes.map(\.coordinate))
        for (seed, reports) in [(UInt64(1), true), (2, false)] {
            let noise = FixNoise(sigma: 15, correlationTime: 60, outlierRate: 0.005, reportsAccuracy: reports, seed: seed)
            let score = RecordedNoiseScore(track: fixes, regions: regions, noise: noise)
            #expect(Double(score.missed.count) <= 0.25 * Double(score.heldCrossings), "\(path) accuracy \(reports): \(score)")
            #expect(Double(score.spurious.count) <= 0.2 * Double(max(score.heldCrossings, 30)), "\(path) accuracy \(reports): \(score)")
        }
    }
}
