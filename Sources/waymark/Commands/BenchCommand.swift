import ArgumentParser
import WaymarkCore
import WaymarkExport
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkSources

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Waymark on this machine: GPX parsing, the region engine, location services, beacons.",
        discussion: """
            Each benchmark runs --repeat times and reports the median; its last line on standard \
            output is one JSON object. BENCHMARKS.md records the figures and how they were made.
            """,
        subcommands: [Regions.self, GPX.self, API.self, Services.self, Ingest.self, Export.self, Beacons.self, Explain.self, Noise.self, Places.self, Timeline.self])

    struct Regions: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fixes per second through the region engine with enter/exit state.",
            discussion: """
                Loads the regions (GeoJSON, or a seeded synthetic set), then runs every fix of the \
                track through the engine; loading and index building are excluded from `seconds`. \
                Prints {"fixes","memberships","transitions","seconds","fixes_per_second",…}: \
                memberships is the sum over fixes of the regions containing the fix.
                """)

        @Option(help: "GeoJSON file or folder of regions.")
        var regions: String?

        @Option(help: "GPX track whose points are the fixes.")
        var track: String?

        @Option(name: .customLong("id-property"), help: "Feature property that names a region.")
        var idProperty: String?

        @Flag(name: .customLong("number-unnamed"), help: "Name features that have no identifier FILE#INDEX (e.g. ne_50m_urban_areas#17) instead of rejecting them.")
        var numberUnnamed = false

        @Option(help: "Instead of files: 'city' (0.4° × 0.5°, dense) or 'country' (7.5° × 9°, sparse) synthetic data: half circles as 32-gons of 100–500 m, half star polygons of 100–600 m, and uniform random fixes.")
        var synthetic: String?

        @Option(name: .customLong("region-count"), help: "Synthetic regions.")
        var regionCount = 10_000

        @Option(name: .customLong("fix-count"), help: "Synthetic fixes.")
        var fixCount = 100_000

        @Option(help: "Seed of the synthetic data.")
        var seed: UInt64 = 1

        @Option(name: .customLong("random-fixes"), help: "With --regions and no --track: this many uniform random fixes over the regions' extent.")
        var randomFixes: Int?

        @Option(name: .customLong("spatialite-baseline"), help: "Also run the first N fixes through SpatiaLite (ST_Contains / geodesic ST_Distance behind its R*Tree, one query per fix), report its fixes/s and count the fixes where both agree.")
        var spatialiteBaseline: Int?

        @Option(name: .customLong("repeat"), help: "Runs; the median is reported.")
        var repetitions = 5

        @Option(name: .customLong("write-data"), help: "Also write the regions (DIR/regions.geojson) and fixes (DIR/fixes.csv, lat,lon) measured, for a baseline to read (Benchmarks/shapely_baseline.py).")
        var writeData: String?

        @OptionGroup(title: "Pipeline settings (the daemon's keys; docs/configuration.md)")
        var pipeline: PipelineSettingsOptions

        func validate() throws {
            if synthetic == nil && (regions == nil || (track == nil && randomFixes == nil)) {
                throw ValidationError("give --regions FILE with --track FILE or --random-fixes N, or --synthetic city|country")
            }
            if let synthetic, !["city", "country"].contains(synthetic) {
                throw ValidationError("--synthetic must be 'city' or 'country', got '\(synthetic)'")
            }
            if repetitions < 1 { throw ValidationError("--repeat must be at least 1") }
        }

        func run() throws {
            let (regionSet, fixes) = try load()
            if let writeData { try write(regionSet, fixes, to: writeData) }
            var results: [RegionBenchmark.Result] = []
            let configuration = try pipeline.settings().regions
            for _ in 0..<repetitions { results.append(RegionBenchmark.run(regions: regionSet, fixes: fixes, configuration: configuration)) }
            let median = results.sorted { $0.seconds < $1.seconds }[results.count / 2]
            var json = JSONObjectWriter()
            json.add("benchmark", "regions")
            json.add("data", synthetic ?? regions!)
            json.add("regions", regionSet.count)
            json.add("fixes", median.fixes)
            json.add("memberships", median.memberships)
            json.add("transitions", median.transitions)
            json.add("seconds", median.seconds)
            json.add("fixes_per_second", median.fixesPerSecond.rounded())
            json.add("query_only_fixes_per_second", median.queryOnlyFixesPerSecond.rounded())
            json.add("runs", repetitions)
            json.add("build_seconds", median.buildSeconds)
            json.add("bytes_per_region", median.bytesPerRegion.rounded())
            json.add("peak_rss_bytes", ResourceUsage.peakResidentBytes)
            if let spatialiteBaseline {
                let baseline = try SpatiaLiteBaseline.run(regions: regionSet, fixes: Array(fixes.prefix(spatialiteBaseline)))
                json.add("spatialite_fixes", baseline.fixes)
                json.add("spatialite_fixes_per_second", baseline.fixesPerSecond.rounded())
                json.add("spatialite_agreeing_fixes", baseline.agreeing)
                json.add("speedup_over_spatialite", (median.fixesPerSecond / baseline.fixesPerSecond).rounded())
            }
            print(json.object)
        }

        private func write(_ regions: [Region], _ fixes: [Fix], to directory: String) throws {
            let regionFile = try FileSink(creating: directory + "/regions.geojson")
            try regionFile.write(Region.featureCollection(regions))
            try regionFile.flush()
            let fixFile = try FileSink(creating: directory + "/fixes.csv")
            try fixFile.write("lat,lon\n" + fixes.map { "\($0.coordinate.latitude),\($0.coordinate.longitude)\n" }.joined())
            try fixFile.flush()
        }

        private func load() throws -> ([Region], [Fix]) {
            if let synthetic {
                let country = synthetic == "country"
                let regions = country
                    ? SyntheticRegions.country(seed: seed, count: regionCount)
                    : SyntheticRegions.city(seed: seed, count: regionCount)
                let box = country ? SyntheticRegions.countryBox : SyntheticRegions.cityBox
                return (regions, SyntheticFixes.uniform(in: box, count: fixCount, seed: seed &+ 1))
            }
            let regions = try GeoJSONRegionLoader.load(
                paths: [self.regions!], idProperty: idProperty, unnamedFeatures: numberUnnamed ? .numberByIndex : .reject)
            if let randomFixes {
                let corners = regions.flatMap(\.corners)
                guard let box = BoundingBox(enclosing: corners) else { throw CommandError("no regions in \(self.regions!)") }
                return (regions, SyntheticFixes.uniform(in: box, count: randomFixes, seed: seed))
            }
            return (regions, try GPXFixSource.fixes(atPath: track!))
        }
    }

    struct GPX: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "GPX parsing throughput (MB/s) and peak memory.",
            discussion: """
                Streams the file through the GPX reader, counting points, --repeat times. Prints \
                {"bytes","points","seconds","mb_per_second","peak_rss_bytes"} (MB = 10^6 bytes; \
                seconds is the median run).
                """)

        @Argument(help: "The GPX file.")
        var file: String

        @Option(name: .customLong("repeat"), help: "Runs; the median is reported.")
        var repetitions = 5

        func run() throws {
            var timings: [Double] = []
            var points = 0
            let bytes = try FileSize.of(file)
            let clock = ContinuousClock()
            for _ in 0..<max(1, repetitions) {
                var reader = try GPXReader(path: file)
                var count = 0
                let start = clock.now
                while try reader.nextPoint() != nil { count += 1 }
                let elapsed = clock.now - start
                timings.append(elapsed.inSeconds)
                points = count
            }
            let median = timings.sorted()[timings.count / 2]
            var json = JSONObjectWriter()
            json.add("benchmark", "gpx")
            json.add("file", file)
            json.add("bytes", bytes)
            json.add("points", points)
            json.add("seconds", median)
            json.add("mb_per_second", (Double(bytes) / 1e6 / median * 10).rounded() / 10)
            json.add("runs", timings.count)
            json.add("peak_rss_bytes", ResourceUsage.peakResidentBytes)
            print(json.object)
        }
    }
}
