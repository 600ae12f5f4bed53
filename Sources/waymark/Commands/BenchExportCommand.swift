import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkExport
import WaymarkExportJob

extension BenchCommand {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export throughput (points/s) and peak memory, per format.",
            discussion: """
                Runs `waymark export FILE --format F` (both passes, into a temporary file) --repeat \
                times and prints the median as JSON: {"points","seconds","points_per_second",\
                "mb_per_second","peak_rss_bytes"} (MB = 10^6 bytes of input). Run one format per \
                process to see each format's own peak memory.
                """)

        @Argument(help: "The GPX file.")
        var file: String

        @Option(help: "gpx, geojson, kml, svg, png, overlay, kmz or mbtiles.")
        var format: String = "gpx"

        @Option(name: .customLong("min-zoom"), help: "With mbtiles: the least zoom.")
        var minZoom = 10

        @Option(name: .customLong("max-zoom"), help: "With mbtiles: the deepest zoom.")
        var maxZoom = 16

        @Option(help: "Simplify to this tolerance in metres.")
        var simplify: Double?

        @Option(name: .customLong("repeat"), help: "Runs; the median is reported.")
        var repetitions = 5

        @Option(name: .long, parsing: .upToNextOption, help: "GeoJSON files or folders of regions the export monitors (as `waymark export --regions`).")
        var regions: [String] = []

        @OptionGroup(title: "Pipeline settings (the daemon's keys; docs/configuration.md)")
        var pipeline: PipelineSettingsOptions

        func validate() throws {
            guard ExportFormat(rawValue: format) != nil else { throw ValidationError("--format: unknown format '\(format)'") }
            if let simplify, !(simplify > 0.05) { throw ValidationError("--simplify must be above 0.05 m") }
            guard 0 <= minZoom, minZoom <= maxZoom, maxZoom <= ExportOptions.zoomLimit else {
                throw ValidationError("--min-zoom and --max-zoom must be 0…\(ExportOptions.zoomLimit), the least first")
            }
        }

        func run() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            var options = ExportOptions(
                source: .gpx(path: file), format: ExportFormat(rawValue: format)!,
                outputPath: folder.appendingPathComponent("out." + (format == "overlay" ? "png" : format)).path)
            options.simplify = simplify
            options.zooms = minZoom...maxZoom
            options.regionPaths = regions
            options.settings = try pipeline.settings()
            let logger = CommandLogging.logger("waymark.bench")
            let clock = ContinuousClock()
            var timings: [Double] = []
            var report: ExportReport?
            for _ in 0..<max(1, repetitions) {
                let start = clock.now
                report = try ExportJob.run(options, logger: logger)
                timings.append((clock.now - start).inSeconds)
            }
            let median = timings.sorted()[timings.count / 2]
            let points = report?.overview.statistics.points ?? 0
            var json = JSONObjectWriter()
            json.add("benchmark", "export")
            json.add("file", file)
            json.add("format", format)
            if format == ExportFormat.mbtiles.rawValue { json.add("zooms", "\(minZoom)-\(maxZoom)") }
            json.add("points", points)
            json.add("points_written", report?.pointsWritten ?? 0)
            json.add("events", report?.overview.events.count ?? 0)
            json.add("output_bytes", (try? FileSize.of(options.outputPath)) ?? 0)
            json.add("seconds", median)
            json.add("points_per_second", (Double(points) / median).rounded())
            json.add("mb_per_second", (Double(try FileSize.of(file)) / 1e6 / median * 10).rounded() / 10)
            json.add("runs", timings.count)
            json.add("peak_rss_bytes", ResourceUsage.peakResidentBytes)
            print(json.object)
        }
    }
}
