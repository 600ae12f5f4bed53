import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkDaemon
import WaymarkStore

extension BenchCommand {
    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "explain",
            abstract: "Milliseconds `waymark explain` takes for an event in a long history.",
            discussion: """
                Records --fixes fixes of one device walking through a 100 m circle and back (an entry \
                and an exit every 5 minutes, through the daemon's pipeline) into a fresh SpatiaLite \
                file, plus --other-devices devices' fixes at the same times, then explains --events \
                events spread over the history, each --repeat times, counting those reproduced. \
                Prints the median and the slowest, in milliseconds, as JSON.
                """)

        @Option(help: "Fixes of the walking device (one a second).")
        var fixes = 1_000_000

        @Option(name: .customLong("other-devices"), help: "Other devices with as many fixes at the same times.")
        var otherDevices = 0

        @Option(help: "Events explained, spread over the history.")
        var events = 11

        @Option(name: .customLong("repeat"), help: "Times each event is explained.")
        var repetitions = 5

        @Option(help: "Directory for the database (a new file in it; default: a temporary directory).")
        var directory: String?

        @OptionGroup(title: "Pipeline settings (the daemon's keys; docs/configuration.md)")
        var pipeline: PipelineSettingsOptions

        func validate() throws {
            guard fixes >= 600, otherDevices >= 0, events >= 1, repetitions >= 1 else {
                throw ValidationError("--fixes must be at least 600, --events and --repeat at least 1, --other-devices at least 0")
            }
        }

        func run() throws {
            let database = "\(directory ?? NSTemporaryDirectory())/waymark-bench-explain-\(getpid()).sqlite"
            defer { for suffix in ["", "-wal", "-shm"] { unlink(database + suffix) } }
            let store = try WaymarkStore(path: database, logger: CommandLogging.logger("waymark-bench"))
            let result = try ExplainBenchmark.run(
                store: store, fixes: fixes, otherDevices: otherDevices, sampled: events, repetitions: repetitions, settings: try pipeline.settings())
            var json = JSONObjectWriter()
            json.add("benchmark", "explain")
            json.add("fixes", result.fixes)
            json.add("events", result.events)
            json.add("explanations", result.milliseconds.count)
            json.add("fixes_per_explanation", result.fixesPerExplanation)
            json.add("reproduced", result.reproduced)
            json.add("mismatches", result.mismatches)
            json.add("median_ms", (result.median * 100).rounded() / 100)
            json.add("max_ms", (result.maximum * 100).rounded() / 100)
            json.add("build_seconds", (result.buildSeconds * 10).rounded() / 10)
            json.add("peak_rss_bytes", ResourceUsage.peakResidentBytes)
            print(json.object)
        }
    }
}
