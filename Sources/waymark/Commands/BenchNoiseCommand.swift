import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkRegions
import WaymarkReplay
import WaymarkSimulation
import WaymarkSources

extension BenchCommand {
    struct Noise: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "noise",
            abstract: "Region events on noisy fixes: false exits, flips and missed crossings over many seeds.",
            discussion: """
                Runs the region engine's noise scenarios (docs/semantics.md §3.3) through the \
                pipeline for seeds 1…--seeds: `stationary` (a day at 1 Hz, 20 m inside a 50 m zone), \
                `zones` (two circles of 30 m and 11 m, 72 m apart, 8 walks between rests of \
                --rest seconds), each with σ = 30 m error wandering over 60 s and independent, 1 % \
                outliers of 150–300 m, accuracy stated and not; and `recorded` (each GPX track given, \
                with circles along it, σ = 15 m wandering error and 0.5 % outliers). Prints one \
                JSON line per scenario and variant with the totals over the seeds.
                """)

        @Option(help: "Seeds per scenario and variant.")
        var seeds = 10

        @Option(help: "Seconds the device rests in each zone of the `zones` scenario.")
        var rest = 900.0

        @Option(name: .customLong("track"), help: "GPX tracks for the `recorded` scenario (repeatable).")
        var tracks: [String] = []

        @Option(help: "Only this scenario: stationary, zones or recorded.")
        var scenario: String?

        @OptionGroup(title: "Pipeline settings (the daemon's keys; docs/configuration.md)")
        var pipeline: PipelineSettingsOptions

        func validate() throws {
            guard seeds >= 1, rest >= 60 else { throw ValidationError("--seeds must be at least 1 and --rest at least 60") }
            if let scenario, !["stationary", "zones", "recorded"].contains(scenario) {
                throw ValidationError("--scenario: '\(scenario)' is not stationary, zones or recorded")
            }
        }

        func run() throws {
            let settings = try pipeline.settings()
            let variants: [(name: String, correlation: Double, accuracy: Bool)] = [
                ("wandering, accuracy stated", 60, true), ("wandering, no accuracy", 60, false),
                ("independent, accuracy stated", 0, true), ("independent, no accuracy", 0, false),
            ]
            for (name, scene) in [("stationary", NoiseScenario.stationary()), ("zones", NoiseScenario.twoZones(rest: rest))]
            where scenario == nil || scenario == name {
                for variant in variants {
                    var total = NoiseScore.Totals()
                    for seed in 1...UInt64(seeds) {
                        let noise = FixNoise(sigma: 30, correlationTime: variant.correlation, outlierRate: 0.01, reportsAccuracy: variant.accuracy, seed: seed)
                        total.add(NoiseScore(scene, fixes: noise.apply(to: scene.truth), settings: settings))
                    }
                    print(total.json(scenario: name, variant: variant.name, seeds: seeds))
                }
            }
            guard scenario == nil || scenario == "recorded" else { return }
            for path in tracks {
                let fixes = try GPXFixSource.fixes(atPath: path)
                guard !fixes.isEmpty, fixes.allSatisfy({ $0.time != nil }) else { continue }
                let regions = RegionsAlongTrack(seed: 5, perKilometre: 2).regions(along: fixes.map(\.coordinate))
                for accuracy in [true, false] {
                    var held = 0, missed = 0, spurious = 0
                    for seed in 1...UInt64(seeds) {
                        let noise = FixNoise(sigma: 15, correlationTime: 60, outlierRate: 0.005, reportsAccuracy: accuracy, seed: seed)
                        let score = RecordedNoiseScore(track: fixes, regions: regions, noise: noise, settings: settings)
                        held += score.heldCrossings
                        missed += score.missed.count
                        spurious += score.spurious.count
                    }
                    let track = URL(fileURLWithPath: path).lastPathComponent
                    print("{\"scenario\":\"recorded\",\"track\":\"\(track)\",\"accuracy\":\(accuracy),\"seeds\":\(seeds),\"heldCrossings\":\(held),\"missed\":\(missed),\"spurious\":\(spurious)}")
                }
            }
        }
    }
}
