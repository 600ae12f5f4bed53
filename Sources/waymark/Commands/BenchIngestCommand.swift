import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkDaemon
import WaymarkRegions
import WaymarkSimulation
import WaymarkSources

extension BenchCommand {
    struct Ingest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ingest",
            abstract: "Fixes per second recorded by the daemon's pipeline and store, from a source in the same process.",
            discussion: """
                Plays the track lap after lap (each lap later in time) through the daemon's own \
                pipeline — validation gate, region monitor over seeded regions along the track, two \
                subscriptions (standard updates with significant change; visits with significant change) \
                — into a fresh SpatiaLite file through the group-committing store writer, for \
                --seconds, then waits for the last commit. Counts the rows stored, not the fixes sent.
                """)

        @Option(help: "GPX track whose timed points are the fixes.")
        var track: String

        @Option(help: "Seconds to keep feeding fixes.")
        var seconds = 60.0

        @Option(help: "Seed of the regions generated along the track (as `regions generate`).")
        var seed: UInt64 = 7

        @Flag(name: .customLong("bare"), help: "No regions and no subscriptions: the store's cost of the fixes alone, for comparison.")
        var bare = false

        @Option(help: "Source events handed to the pipeline at once.")
        var burst = 256

        @Option(name: .customLong("baseline-seconds"), help: "Seconds of the same-run baseline: one transaction per fix, no pipeline (0: none).")
        var baselineSeconds = 10.0

        @Option(help: "Directory for the database (a new file in it; default: a temporary directory).")
        var directory: String?

        @OptionGroup(title: "Pipeline settings (the daemon's keys; docs/configuration.md)")
        var pipeline: PipelineSettingsOptions

        func validate() throws {
            guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
            guard burst > 0 else { throw ValidationError("--burst must be positive") }
        }

        func run() async throws {
            var source = try GPXFixSource(path: track)
            var fixes: [Fix] = []
            while let fix = try source.next() {
                if fix.time != nil { fixes.append(fix) }
            }
            let regions = bare ? [] : RegionsAlongTrack(seed: seed).regions(along: fixes.map(\.coordinate))
            let subscriptions = bare ? [] : IngestBenchmark.subscriptions
            let folder = directory ?? NSTemporaryDirectory()
            let database = "\(folder)/waymark-bench-ingest-\(getpid()).sqlite"
            let baselineDatabase = "\(folder)/waymark-bench-ingest-baseline-\(getpid()).sqlite"
            defer { for path in [database, baselineDatabase] { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } } }
            let result = try await IngestBenchmark.run(
                fixes: fixes, regions: regions, subscriptions: subscriptions, database: database, duration: .seconds(seconds), burst: burst,
                settings: try pipeline.settings(), logger: CommandLogging.logger("waymark-bench"))
            let baseline = baselineSeconds > 0
                ? try await IngestBenchmark.perFixCommitBaseline(
                    fixes: fixes, database: baselineDatabase, duration: .seconds(baselineSeconds), logger: CommandLogging.logger("waymark-bench"))
                : nil
            var json = JSONObjectWriter()
            json.add("benchmark", "ingest")
            json.add("track", track)
            json.add("regions", regions.count)
            json.add("subscriptions", subscriptions.count)
            json.add("laps", result.laps)
            json.add("fixes_sent", result.fixesSent)
            json.add("fixes_stored", result.fixesStored)
            json.add("events_stored", result.eventsStored)
            json.add("seconds", result.seconds)
            json.add("fixes_per_second", result.fixesPerSecond.rounded())
            json.add("writer_cpu_seconds", result.writerCPUSeconds)
            json.add("process_cpu_seconds", result.processCPUSeconds)
            json.add("writer_cpu_us_per_fix", (result.writerCPUSeconds / Double(result.fixesStored) * 1e7).rounded() / 10)
            json.add("process_cpu_us_per_fix", (result.processCPUSeconds / Double(result.fixesStored) * 1e7).rounded() / 10)
            json.add("commits", result.commits)
            json.add("durable_commits", result.durableCommits)
            json.add("largest_group", result.largestGroup)
            if let baseline {
                json.add("baseline_per_fix_commit_fixes_per_second", baseline.rounded())
                json.add("ratio_to_baseline", (result.fixesPerSecond / baseline * 10).rounded() / 10)
            }
            json.add("peak_rss_bytes", ResourceUsage.peakResidentBytes)
            print(json.object)
            guard result.fixesStored == result.fixesSent else {
                throw CommandError("\(result.fixesSent - result.fixesStored) of \(result.fixesSent) fixes were not stored")
            }
        }
    }
}
