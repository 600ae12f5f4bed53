import WaymarkCore
import WaymarkRegions

/// One iBeacon advertisement as heard: who sent it, how loud, and when.
///
/// iBeacon frame (docs/semantics.md §3): manufacturer-specific data `4C 00` (Apple's company identifier,
/// little-endian) `02 15` (type iBeacon, 21 bytes follow), the proximity UUID (16 bytes), major
/// (2, big-endian), minor (2, big-endian), measured power (1, signed: the RSSI at 1 m, dBm).
public struct BeaconAdvertisement: Sendable, Equatable {
    /// When it was received.
    public var time: Timestamp
    public var uuid: BeaconUUID
    public var major: UInt16
    public var minor: UInt16
    /// The advertised RSSI at 1 m, dBm (typically −50 … −70); 0 when the beacon does not say.
    public var measuredPower: Int8
    /// Received signal strength, dBm (−127 … 20); 0 when the receiver did not measure it.
    public var rssi: Int8

    public init(time: Timestamp, uuid: BeaconUUID, major: UInt16, minor: UInt16, measuredPower: Int8, rssi: Int8) {
        self.time = time
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
        self.rssi = rssi
    }

    /// The beacon that sent it.
    public var beacon: BeaconKey { BeaconKey(uuid: uuid, major: major, minor: minor) }
}

/// One physical iBeacon: its UUID, major and minor.
public struct BeaconKey: Sendable, Hashable, Comparable {
    public var uuid: BeaconUUID
    public var major: UInt16
    public var minor: UInt16

    public init(uuid: BeaconUUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    public static func < (a: BeaconKey, b: BeaconKey) -> Bool { (a.uuid, a.major, a.minor) < (b.uuid, b.major, b.minor) }
}
