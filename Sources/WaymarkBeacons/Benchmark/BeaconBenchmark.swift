import WaymarkCore
import WaymarkRegions

/// Throughput of beacon advertisements through parsing, monitoring and ranging
/// (`waymark bench beacons`), each stage measured in the same run on the same packets.
public enum BeaconBenchmark {
    public struct Result: Sendable {
        /// HCI packets read and the iBeacon advertisements among them.
        public var packets: Int
        public var advertisements: Int
        public var ignored: [String: Int]
        /// Transitions the monitor reported.
        public var transitions: Int
        /// CPU seconds of one thread: parsing alone (the baseline), parsing and monitoring, and
        /// parsing, monitoring and ranging once a second.
        public var parseSeconds: Double
        public var monitorSeconds: Double
        public var rangingSeconds: Double

        public var parseAdvertisementsPerSecond: Double { Double(advertisements) / parseSeconds }
        public var monitorAdvertisementsPerSecond: Double { Double(advertisements) / monitorSeconds }
        public var rangingAdvertisementsPerSecond: Double { Double(advertisements) / rangingSeconds }
    }

    /// Runs `packets`, one every `spacing` seconds from `start`, through each stage.
    public static func run(regions: [Region], packets: [[UInt8]], spacing: Double = 0.001) -> Result {
        let start = Timestamp(nanosecondsSince1970: 1_780_300_800_000_000_000)
        let step = Int64((spacing * 1e9).rounded())
        func time(_ i: Int) -> Timestamp { Timestamp(nanosecondsSince1970: start.nanosecondsSince1970 + Int64(i) * step) }

        var decoder = AdvertisementDecoder()
        var parsed = 0
        var cpu = RegionBenchmark.threadCPUTime()
        for (i, packet) in packets.enumerated() {
            packet.withUnsafeBufferPointer { decoder.decode(hciPacket: $0, time: time(i)) { _ in parsed += 1 } }
        }
        let parseSeconds = RegionBenchmark.threadCPUTime() - cpu

        var monitor = BeaconMonitor(regions: regions)
        var monitorDecoder = AdvertisementDecoder()
        var transitions = 0
        cpu = RegionBenchmark.threadCPUTime()
        for (i, packet) in packets.enumerated() {
            packet.withUnsafeBufferPointer {
                monitorDecoder.decode(hciPacket: $0, time: time(i)) { transitions += monitor.process($0).transitions.count }
            }
        }
        let monitorSeconds = RegionBenchmark.threadCPUTime() - cpu

        var rangingMonitor = BeaconMonitor(regions: regions)
        var ranger = BeaconRanger(constraints: regions.compactMap(\.beacon))
        var rangingDecoder = AdvertisementDecoder()
        var ranged = 0
        cpu = RegionBenchmark.threadCPUTime()
        for (i, packet) in packets.enumerated() {
            packet.withUnsafeBufferPointer {
                rangingDecoder.decode(hciPacket: $0, time: time(i)) { advertisement in
                    ranger.rangings(before: advertisement.time) { _, beacons in ranged += beacons.count }
                    ranger.record(advertisement)
                    _ = rangingMonitor.process(advertisement)
                }
            }
        }
        let rangingSeconds = RegionBenchmark.threadCPUTime() - cpu
        precondition(parsed == decoder.counts.accepted && ranged >= 0)
        return Result(
            packets: packets.count, advertisements: parsed, ignored: decoder.counts.rejected, transitions: transitions,
            parseSeconds: parseSeconds, monitorSeconds: monitorSeconds, rangingSeconds: rangingSeconds)
    }
}
