import Testing
import WaymarkBeacons
import WaymarkRegions

/// The benchmark's generated data is what `waymark bench beacons` says it is, and every stage
/// sees the same advertisements.
@Suite struct BeaconBenchmarkTests {
    @Test func theGeneratedPacketsAreEightInTenIBeaconsAndTheRestIgnoredByReason() {
        let beacons = SyntheticAdvertisements.beacons(seed: 1, count: 50)
        #expect(Set(beacons).count == 50)
        let regions = SyntheticAdvertisements.regions(over: beacons, count: 40, seed: 2)
        #expect(regions.filter { $0.beacon?.minor == nil }.count == 4)  // one in ten is a wildcard
        let packets = SyntheticAdvertisements.packets(from: beacons, count: 2_000, seed: 3)
        let result = BeaconBenchmark.run(regions: regions, packets: packets)
        #expect(result.advertisements == 1_600)
        #expect(result.ignored == ["otherManufacturer": 200, "otherAppleType": 100, "truncated": 100])
        #expect(result.transitions > 0)
        #expect(SyntheticAdvertisements.packets(from: beacons, count: 10, seed: 3) == Array(packets.prefix(10)))
    }
}
