import Foundation
import WaymarkBeacons
import WaymarkCore
import WaymarkRegions

/// A beacon a device saw (an OwnTracks `beacon` message: docs/devices.md) as it travels on the
/// bus, on its device's fix subject with `.b` appended, so it stays in order with the device's
/// fixes. The worker runs it through the device's beacon-region monitoring, as the single daemon does.
struct SightingPayload: Codable, Sendable, Equatable {
    var d: String
    var t: Int64
    var uuid: String
    var major: UInt16
    var minor: UInt16
    var power: Int8
    var rssi: Int8

    init(device: String, advertisement: BeaconAdvertisement) {
        d = device
        t = advertisement.time.nanosecondsSince1970
        uuid = advertisement.uuid.description
        major = advertisement.major
        minor = advertisement.minor
        power = advertisement.measuredPower
        rssi = advertisement.rssi
    }

    var device: String { d }

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    func advertisement() throws(Problem) -> BeaconAdvertisement {
        guard let uuid = BeaconUUID(uuid) else { throw Problem(description: "uuid '\(self.uuid)' is not a UUID") }
        return BeaconAdvertisement(
            time: Timestamp(nanosecondsSince1970: t), uuid: uuid, major: major, minor: minor, measuredPower: power, rssi: rssi)
    }

    func encoded() -> [UInt8] {
        // Encoding a struct of numbers and strings cannot fail.
        (try? Array(JSONEncoder().encode(self))) ?? []
    }

    static func decode(_ bytes: [UInt8]) throws -> SightingPayload {
        try JSONDecoder().decode(SightingPayload.self, from: Data(bytes))
    }
}
