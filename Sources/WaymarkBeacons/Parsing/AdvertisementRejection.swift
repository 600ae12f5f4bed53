/// Why bytes heard over the air did not make an iBeacon advertisement. Counted, never fatal.
public enum AdvertisementRejection: Int, Error, Sendable, CaseIterable, CustomStringConvertible {
    /// Manufacturer data of another company (company identifier ≠ 0x004C, Apple).
    case otherManufacturer
    /// Apple manufacturer data that is not an iBeacon (type ≠ 0x02: AirDrop, Find My, Handoff…).
    case otherAppleType
    /// Advertising data without a manufacturer-specific (0xFF) structure.
    case noManufacturerData
    /// Fewer bytes than the layout needs (an iBeacon frame is 25 bytes after the AD type).
    case truncated
    /// An iBeacon length byte other than 0x15, or bytes beyond the frame.
    case wrongLength
    /// An advertising-data structure whose length runs past the data, or an HCI event whose
    /// lengths disagree with its size.
    case malformed
    /// An HCI event that is not an LE advertising report (command complete, other LE events…).
    case notAdvertisingReport

    /// The name used in summaries and status: `otherManufacturer`, `truncated`, …
    public var description: String {
        switch self {
        case .otherManufacturer: "otherManufacturer"
        case .otherAppleType: "otherAppleType"
        case .noManufacturerData: "noManufacturerData"
        case .truncated: "truncated"
        case .wrongLength: "wrongLength"
        case .malformed: "malformed"
        case .notAdvertisingReport: "notAdvertisingReport"
        }
    }
}

/// Advertisements accepted and rejected by reason.
public struct AdvertisementCounts: Sendable, Equatable {
    public var accepted = 0
    var rejectedByReason = [Int](repeating: 0, count: AdvertisementRejection.allCases.count)

    public init() {}

    public subscript(reason: AdvertisementRejection) -> Int { rejectedByReason[reason.rawValue] }

    /// Reasons with a non-zero count, by name.
    public var rejected: [String: Int] {
        var result: [String: Int] = [:]
        for reason in AdvertisementRejection.allCases where self[reason] > 0 { result[reason.description] = self[reason] }
        return result
    }

    public var rejectedTotal: Int { rejectedByReason.reduce(0, +) }

    @inline(__always)
    public mutating func count(_ reason: AdvertisementRejection) { rejectedByReason[reason.rawValue] += 1 }
}
