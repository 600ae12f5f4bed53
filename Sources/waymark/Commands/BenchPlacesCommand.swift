import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkPlaces
import WaymarkTimelineJob

extension BenchCommand {
    struct Places: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "places",
            abstract: "Reverse-geocoder lookups per second and the memory of its index.",
            discussion: """
                Loads the place data (timed), then looks up --count seeded random points uniform \
                over the sphere ("world") and --count of them that lie on land ("land"), --repeat \
                times on one thread; prints the medians and the peak RSS as one JSON object.
                """)

        @Option(help: "Points per run.")
        var count = 200_000

        @Option(name: .customLong("repeat"), help: "Runs; the median is reported.")
        var repetitions = 5

        @Option(help: "Seed of the random points.")
        var seed: UInt64 = 1

        @Option(help: "Place-data file.")
        var data: String?

        func validate() throws {
            if count < 1 || repetitions < 1 { throw ValidationError("--count and --repeat must be at least 1") }
        }

        func run() throws {
            let residentBefore = Self.residentBytes
            let started = ContinuousClock.now
            let index: PlaceIndex
            do { index = try PlaceDataFile.load(path: data) } catch { throw CommandError("\(error)") }
            let loadSeconds = Self.seconds(ContinuousClock.now - started)
            let loadedRSS = ResourceUsage.peakResidentBytes
            var random = SplitMix64(seed: seed)
            var world: [Coordinate] = []
            var land: [Coordinate] = []
            while world.count < count || land.count < count {
                let coordinate = Coordinate(
                    latitude: asin(Double.random(in: -1...1, using: &random)) * 180 / .pi,
                    longitude: Double.random(in: -180..<180, using: &random))
                if world.count < count { world.append(coordinate) }
                if land.count < count, !index.lookup(coordinate).atSea { land.append(coordinate) }
            }
            func rate(_ points: [Coordinate]) -> (perSecond: Double, atSea: Int) {
                var rates: [Double] = []
                var atSea = 0
                for _ in 0..<repetitions {
                    atSea = 0
                    let start = ContinuousClock.now
                    for point in points where index.lookup(point).atSea { atSea += 1 }
                    rates.append(Double(points.count) / Self.seconds(ContinuousClock.now - start))
                }
                return (rates.sorted()[rates.count / 2], atSea)
            }
            let worldRate = rate(world)
            let landRate = rate(land)
            let counts = index.counts
            var json = JSONObjectWriter()
            json.add("benchmark", "places")
            json.add("places", counts.places)
            json.add("zones", counts.zones)
            json.add("vertices", counts.vertices)
            json.add("load_seconds", (loadSeconds * 1000).rounded() / 1000)
            json.add("points", count)
            json.add("world_at_sea", worldRate.atSea)
            json.add("world_lookups_per_second", worldRate.perSecond.rounded())
            json.add("land_lookups_per_second", landRate.perSecond.rounded())
            json.add("runs", repetitions)
            json.add("rss_before_load_bytes", residentBefore)
            json.add("rss_after_lookups_bytes", Self.residentBytes)
            json.add("index_rss_bytes", Self.residentBytes - residentBefore)
            json.add("peak_rss_after_load_bytes", loadedRSS)
            json.add("peak_rss_bytes", ResourceUsage.peakResidentBytes)
            print(json.object)
        }

        /// The resident set size now (`VmRSS` of /proc/self/status), bytes; 0 when unknown.
        private static var residentBytes: Int {
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let kib = Int(line.split(separator: " ")[1])
            else { return 0 }
            return kib * 1024
        }

        private static func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        }
    }
}
