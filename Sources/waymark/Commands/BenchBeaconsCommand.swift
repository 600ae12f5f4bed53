import ArgumentParser
import WaymarkBeacons
import WaymarkCore

extension BenchCommand {
    struct Beacons: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "beacons",
            abstract: "iBeacon advertisements per second through parsing, the beacon monitor and ranging.",
            discussion: """
                Generates seeded HCI LE Advertising Report packets (8 in 10 iBeacons of --beacons \
                beacons, the rest other vendors' or broken frames, one every millisecond) and \
                --regions beacon regions over them (one in ten a wildcard: a whole site or building), then times, on one thread's \
                CPU clock, parsing alone (the baseline), parsing and monitoring, and parsing, \
                monitoring and ranging once a second; --repeat times, medians as JSON.
                """)

        @Option(help: "Distinct beacons advertising.")
        var beacons = 1_000

        @Option(help: "Beacon regions monitored.")
        var regions = 1_000

        @Option(help: "HCI packets.")
        var packets = 1_000_000

        @Option(help: "Seed of the generated data.")
        var seed: UInt64 = 1

        @Option(name: .customLong("repeat"), help: "Runs; the median of each stage is reported.")
        var repetitions = 5

        func validate() throws {
            if beacons < 1 || regions < 0 || packets < 1 || repetitions < 1 {
                throw ValidationError("--beacons, --packets and --repeat must be at least 1, --regions at least 0")
            }
        }

        func run() throws {
            let deployment = SyntheticAdvertisements.beacons(seed: seed, count: beacons)
            let regionSet = SyntheticAdvertisements.regions(over: deployment, count: regions, seed: seed &+ 1)
            let data = SyntheticAdvertisements.packets(from: deployment, count: packets, seed: seed &+ 2)
            let results = (0..<repetitions).map { _ in BeaconBenchmark.run(regions: regionSet, packets: data) }
            func median(_ value: (BeaconBenchmark.Result) -> Double) -> Double { results.map(value).sorted()[results.count / 2] }
            var json = JSONObjectWriter()
            json.add("benchmark", "beacons")
            json.add("beacons", beacons)
            json.add("regions", regionSet.count)
            json.add("packets", results[0].packets)
            json.add("advertisements", results[0].advertisements)
            var ignored = JSONObjectWriter()
            for (reason, count) in results[0].ignored.sorted(by: { $0.key < $1.key }) { ignored.add(reason, count) }
            json.addRaw("ignored", ignored.object)
            json.add("transitions", results[0].transitions)
            json.add("parse_advertisements_per_second", median(\.parseAdvertisementsPerSecond).rounded())
            json.add("monitor_advertisements_per_second", median(\.monitorAdvertisementsPerSecond).rounded())
            json.add("ranging_advertisements_per_second", median(\.rangingAdvertisementsPerSecond).rounded())
            json.add("runs", repetitions)
            json.add("peak_rss_bytes", ResourceUsage.peakResidentBytes)
            print(json.object)
        }
    }
}
