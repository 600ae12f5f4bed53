import ArgumentParser
import WaymarkCore
import WaymarkPipeline
import WaymarkServices
import WaymarkSources

extension BenchCommand {
    struct Services: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "services",
            abstract: "Fixes per second through the validation gate and every location service.",
            discussion: """
                Reads the track into memory, then runs each fix through the device pipeline with one \
                subscriber: its gate, standard updates (distance filter 10 m, pauses, deferred 500 m), \
                significant change and visits, --repeat times; prints the median as JSON.
                """)

        @Option(help: "GPX track whose points are the fixes.")
        var track: String

        @Option(name: .customLong("repeat"), help: "Runs; the median is reported.")
        var repetitions = 5

        @OptionGroup(title: "Pipeline settings (the daemon's keys; docs/configuration.md)")
        var pipeline: PipelineSettingsOptions

        func run() throws {
            let fixes = try GPXFixSource.fixes(atPath: track)
            var timings: [Double] = []
            var records = 0
            let clock = ContinuousClock()
            let services = ServiceSubscription(
                standard: .init(distanceFilter: 10, pausesAutomatically: true, deferredDistance: 500),
                significantChange: SignificantChangeThresholds(), visits: VisitThresholds())
            let settings = try pipeline.settings()
            for _ in 0..<max(1, repetitions) {
                var pipeline = DevicePipeline(regions: [], subscribers: [Subscriber(id: .subscription("bench"), services: services)], settings: settings)
                records = 0
                let start = clock.now
                for fix in fixes { records += pipeline.handle(.fix(fix)).events.count }
                records += pipeline.finish().count
                let elapsed = clock.now - start
                timings.append(elapsed.inSeconds)
            }
            let median = timings.sorted()[timings.count / 2]
            var json = JSONObjectWriter()
            json.add("benchmark", "services")
            json.add("track", track)
            json.add("fixes", fixes.count)
            json.add("records", records)
            json.add("seconds", median)
            json.add("fixes_per_second", (Double(fixes.count) / median).rounded())
            json.add("runs", timings.count)
            print(json.object)
        }
    }
}
