import WaymarkBeacons
import WaymarkCore
import WaymarkRegions

/// Bytes from hexadecimal text, spaces allowed: `"04 3E 2A"`.
func hex(_ text: String) -> [UInt8] {
    let digits = text.filter { !$0.isWhitespace }
    var bytes: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        bytes.append(UInt8(digits[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

let trailUUID = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
let bikeUUID = BeaconUUID("8DEEFBB9-F738-4297-8040-96668BB44281")!

/// 2026-06-01T08:00:00Z plus `seconds`.
func at(_ seconds: Double) -> Timestamp { Timestamp(secondsSince1970: 1_780_300_800 + seconds) }

func advertisement(
    _ uuid: BeaconUUID = trailUUID, major: UInt16 = 1, minor: UInt16 = 1, rssi: Int8 = -60, power: Int8 = -59,
    at seconds: Double
) -> BeaconAdvertisement {
    BeaconAdvertisement(time: at(seconds), uuid: uuid, major: major, minor: minor, measuredPower: power, rssi: rssi)
}

func beaconRegion(
    _ identifier: String, _ uuid: BeaconUUID = trailUUID, major: UInt16? = nil, minor: UInt16? = nil,
    options: RegionOptions = RegionOptions()
) -> Region {
    Region(identifier: identifier, shape: .beacon(BeaconIdentity(uuid: uuid, major: major, minor: minor)), options: options)
}
