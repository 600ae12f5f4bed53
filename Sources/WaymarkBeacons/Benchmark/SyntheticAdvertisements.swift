import WaymarkCore
import WaymarkRegions

/// Seeded beacon data for the benchmark and tests: a deployment of iBeacons, beacon regions over
/// it, and the HCI event packets a scanner would read.
public enum SyntheticAdvertisements {
    /// `count` beacons in sites of 125 (one proximity UUID each, as an organisation deploys
    /// them): majors for buildings of 16, minors for rooms.
    public static func beacons(seed: UInt64, count: Int) -> [BeaconKey] {
        var random = SplitMix64(seed: seed)
        let uuids = max(1, count / 125)
        let owners = (0..<uuids).map { _ in BeaconUUID(high: random.next(), low: random.next()) }
        return (0..<count).map { i in
            BeaconKey(uuid: owners[i % uuids], major: UInt16(truncatingIfNeeded: i / uuids / 16), minor: UInt16(truncatingIfNeeded: i))
        }
    }

    /// `count` beacon regions over `beacons`: one in twenty a whole site (UUID only), one in
    /// twenty a building (UUID and major), the rest single beacons; identifiers `beacon-N`.
    public static func regions(over beacons: [BeaconKey], count: Int, seed: UInt64) -> [Region] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { i in
            let beacon = beacons[Int(random.next() % UInt64(beacons.count))]
            let identity: BeaconIdentity
            switch i % 20 {
            case 0: identity = BeaconIdentity(uuid: beacon.uuid)
            case 1: identity = BeaconIdentity(uuid: beacon.uuid, major: beacon.major)
            default: identity = BeaconIdentity(uuid: beacon.uuid, major: beacon.major, minor: beacon.minor)
            }
            return Region(identifier: "beacon-\(i)", shape: .beacon(identity))
        }
    }

    /// One HCI LE Advertising Report packet per element, as a scanner reads them: of every ten,
    /// eight iBeacons of `beacons` (RSSI −40…−95 dBm, measured power −59), one other
    /// manufacturer's data, one Apple non-iBeacon or truncated frame.
    public static func packets(from beacons: [BeaconKey], count: Int, seed: UInt64) -> [[UInt8]] {
        var random = SplitMix64(seed: seed)
        let flags: [UInt8] = [0x02, 0x01, 0x06]
        return (0..<count).map { i in
            let rssi = Int8(-40 - Int(random.next() % 56))
            switch i % 10 {
            case 8:
                return HCIAdvertisingReport.packet(reports: [(flags + [0x07, 0xFF, 0x06, 0x00, 0x01, 0x09, 0x20, 0x02], rssi)])
            case 9 where i % 20 == 9:
                return HCIAdvertisingReport.packet(reports: [(flags + [0x06, 0xFF, 0x4C, 0x00, 0x10, 0x02, 0x0B], rssi)])
            case 9:
                var data = AdvertisingData.encode(frame(beacons[i % beacons.count]))
                data.removeLast(3)
                data[3] -= 3
                return HCIAdvertisingReport.packet(reports: [(data, rssi)])
            default:
                let beacon = beacons[Int(random.next() % UInt64(beacons.count))]
                return HCIAdvertisingReport.packet(reports: [(AdvertisingData.encode(frame(beacon)), rssi)])
            }
        }
    }

    private static func frame(_ beacon: BeaconKey) -> IBeaconFrame {
        IBeaconFrame(uuid: beacon.uuid, major: beacon.major, minor: beacon.minor, measuredPower: -59)
    }
}
