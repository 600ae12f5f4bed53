/// The iBeacon proximity UUID: 16 bytes, written `E2C56DB5-DFFB-48D2-B060-D0F5A71096E0`.
///
/// Held as two big-endian 64-bit halves, so comparing and hashing cost two integer operations.
public struct BeaconUUID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Bytes 0–7 and 8–15, big-endian (the order they are advertised in).
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The UUID in `bytes[start..<start + 16]`, as advertised (most significant byte first).
    @inlinable
    public init(bytes: UnsafeBufferPointer<UInt8>, at start: Int) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        for i in 0..<8 {
            high = high << 8 | UInt64(bytes[start + i])
            low = low << 8 | UInt64(bytes[start + 8 + i])
        }
        self.init(high: high, low: low)
    }

    /// Parses the 8-4-4-4-12 hexadecimal form (either case); nil for anything else.
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        for (i, byte) in utf8.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let nibble = Self.hexValue(byte) else { return nil }
            if digits < 16 { high = high << 4 | UInt64(nibble) } else { low = low << 4 | UInt64(nibble) }
            digits += 1
        }
        self.init(high: high, low: low)
    }

    /// The 16 bytes, most significant first.
    public var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
    }

    /// Upper-case 8-4-4-4-12 form, as Core Location prints it.
    public var description: String {
        let hex = bytes.map { byte -> String in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }

    public static func < (a: BeaconUUID, b: BeaconUUID) -> Bool { (a.high, a.low) < (b.high, b.low) }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Which iBeacons a beacon region stands for (docs/semantics.md §3): one proximity UUID, and a major and
/// a minor that, when absent, match any value. Unlike Core Location's `CLBeaconRegion`, a minor
/// may be given without a major.
public struct BeaconIdentity: Sendable, Hashable {
    public var uuid: BeaconUUID
    /// 0…65535, or nil for any.
    public var major: UInt16?
    /// 0…65535, or nil for any.
    public var minor: UInt16?

    public init(uuid: BeaconUUID, major: UInt16? = nil, minor: UInt16? = nil) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// Whether an advertisement of `uuid`, `major`, `minor` belongs to this region.
    @inlinable
    public func matches(uuid: BeaconUUID, major: UInt16, minor: UInt16) -> Bool {
        self.uuid == uuid && (self.major == nil || self.major == major) && (self.minor == nil || self.minor == minor)
    }
}
