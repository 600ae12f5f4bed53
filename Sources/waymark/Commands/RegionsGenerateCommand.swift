import ArgumentParser
import WaymarkCore
import WaymarkExport
import WaymarkGeoJSON
import WaymarkSimulation
import WaymarkRegions
import WaymarkSources

extension RegionsCommand {
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write seeded regions along a track as GeoJSON (for the power benchmark).",
            discussion: """
                Anchors are drawn uniformly by distance along the track's points; around each, a \
                region of radius --min-radius…--max-radius whose centre is up to twice the radius \
                from the path in a random direction, so about half are crossed and the rest are \
                near misses. Even-numbered regions are circles (Point with properties.radius), \
                odd ones irregular star polygons. The same track, options and --seed always give \
                the same file. Nothing is stored: import the file, or pass it to `replay --regions`.
                """)

        @Option(help: "The track the regions are placed along (GPX, NMEA 0183 or gpsd JSON).")
        var along: String

        @Option(help: "Seed of the generator.")
        var seed: UInt64 = 1

        @Option(name: .customLong("per-km"), help: "Regions per kilometre of track (at least one in all).")
        var perKilometre: Double = 0.5

        @Option(help: "Smallest radius, metres.")
        var minRadius: Double = 50

        @Option(help: "Largest radius, metres.")
        var maxRadius: Double = 400

        @Option(help: "Identifier prefix: regions are PREFIX-0, PREFIX-1….")
        var prefix: String = "along"

        @Option(name: .shortAndLong, help: "Output GeoJSON file (default: standard output).")
        var output: String?

        func validate() throws {
            guard perKilometre > 0, perKilometre.isFinite else { throw ValidationError("--per-km must be a positive number") }
            guard minRadius > 0, maxRadius >= minRadius, maxRadius.isFinite else {
                throw ValidationError("--min-radius and --max-radius: 0 < min ≤ max")
            }
        }

        func run() throws {
            var source = try TrackFileSource(path: along)
            var path: [Coordinate] = []
            while let fix = try source.next() { path.append(fix.coordinate) }
            guard !path.isEmpty else { throw CommandError("\(along): no track or route points to place regions along") }
            let generator = RegionsAlongTrack(seed: seed, perKilometre: perKilometre, radii: minRadius...maxRadius, prefix: prefix)
            let sink = try output.map(FileSink.init(creating:)) ?? FileSink.standardOutput()
            try sink.write(Region.featureCollection(generator.regions(along: path)))
            try sink.flush()
        }
    }
}
