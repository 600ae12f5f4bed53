/// Advertising data (Bluetooth Core Supplement, Part A §1): a sequence of structures
/// `[length][AD type][length − 1 bytes]`; a zero length ends the significant part.
public enum AdvertisingData {
    /// AD type of manufacturer-specific data.
    public static let manufacturerSpecificType: UInt8 = 0xFF

    /// The iBeacon in `bytes`: the first manufacturer-specific structure that is one, else why
    /// none is (the reason for the first manufacturer-specific structure, or
    /// `noManufacturerData`, or `malformed` when a structure's length runs past the end).
    public static func iBeacon(in bytes: UnsafeBufferPointer<UInt8>) -> Result<IBeaconFrame, AdvertisementRejection> {
        var i = 0
        var firstRejection: AdvertisementRejection?
        while i < bytes.count {
            let length = Int(bytes[i])
            if length == 0 { break }
            guard i + 1 + length <= bytes.count else { return .failure(firstRejection ?? .malformed) }
            if bytes[i + 1] == manufacturerSpecificType {
                let payload = UnsafeBufferPointer(rebasing: bytes[(i + 2)..<(i + 1 + length)])
                switch IBeaconFrame.parse(manufacturerData: payload) {
                case .success(let frame): return .success(frame)
                case .failure(let reason): firstRejection = firstRejection ?? reason
                }
            }
            i += 1 + length
        }
        return .failure(firstRejection ?? .noManufacturerData)
    }

    /// `iBeacon(in:)` over an array.
    public static func iBeacon(in bytes: [UInt8]) -> Result<IBeaconFrame, AdvertisementRejection> {
        bytes.withUnsafeBufferPointer { iBeacon(in: $0) }
    }

    /// Advertising data holding `frame`: the flags structure a beacon sends (LE General
    /// Discoverable, BR/EDR not supported), then the manufacturer-specific structure.
    public static func encode(_ frame: IBeaconFrame) -> [UInt8] {
        [0x02, 0x01, 0x06, UInt8(IBeaconFrame.byteCount + 1), manufacturerSpecificType] + frame.manufacturerData
    }
}
