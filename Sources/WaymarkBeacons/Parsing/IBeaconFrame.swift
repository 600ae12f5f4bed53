import WaymarkRegions

/// The iBeacon payload of manufacturer-specific data (AD type 0xFF), parsed from bytes.
public struct IBeaconFrame: Sendable, Equatable {
    public var uuid: BeaconUUID
    public var major: UInt16
    public var minor: UInt16
    public var measuredPower: Int8

    public init(uuid: BeaconUUID, major: UInt16, minor: UInt16, measuredPower: Int8) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
    }

    /// Bytes of manufacturer data in an iBeacon: company (2), type (1), length (1), 21 more.
    public static let byteCount = 25

    /// Parses manufacturer-specific data (the bytes after the AD type 0xFF): `4C 00 02 15`,
    /// UUID (16), major (2, big-endian), minor (2, big-endian), measured power (signed byte).
    public static func parse(manufacturerData bytes: UnsafeBufferPointer<UInt8>) -> Result<IBeaconFrame, AdvertisementRejection> {
        guard bytes.count >= 2 else { return .failure(.truncated) }
        guard bytes[0] == 0x4C && bytes[1] == 0x00 else { return .failure(.otherManufacturer) }
        guard bytes.count >= 4 else { return .failure(.truncated) }
        guard bytes[2] == 0x02 else { return .failure(.otherAppleType) }
        guard bytes[3] == 0x15 else { return .failure(.wrongLength) }
        guard bytes.count >= byteCount else { return .failure(.truncated) }
        guard bytes.count == byteCount else { return .failure(.wrongLength) }
        return .success(IBeaconFrame(
            uuid: BeaconUUID(bytes: bytes, at: 4),
            major: UInt16(bytes[20]) << 8 | UInt16(bytes[21]),
            minor: UInt16(bytes[22]) << 8 | UInt16(bytes[23]),
            measuredPower: Int8(bitPattern: bytes[24])))
    }

    /// `parse(manufacturerData:)` over an array.
    public static func parse(manufacturerData bytes: [UInt8]) -> Result<IBeaconFrame, AdvertisementRejection> {
        bytes.withUnsafeBufferPointer { parse(manufacturerData: $0) }
    }

    /// The 25 bytes of manufacturer data that advertise this frame.
    public var manufacturerData: [UInt8] {
        [0x4C, 0x00, 0x02, 0x15] + uuid.bytes
            + [UInt8(major >> 8), UInt8(major & 0xFF), UInt8(minor >> 8), UInt8(minor & 0xFF), UInt8(bitPattern: measuredPower)]
    }
}
