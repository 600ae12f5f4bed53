/// Where one field of a data message lies (its offset after the message's header byte), how
/// many bytes it has, and its base type, as a definition message declared it.
struct FITField {
    var offset: Int
    var size: Int
    var baseType: UInt8

    /// The field's number, or nil when it holds its base type's "invalid" marker (0x7FFFFFFF
    /// for a sint32, 0xFFFF for a uint16, 0 for a uint32z…), is not a number (string, byte
    /// array), or is an array (its size is not its base type's size).
    func value(in message: UnsafePointer<UInt8>, bigEndian: Bool) -> Double? {
        guard let raw = raw(in: message, bigEndian: bigEndian) else { return nil }
        switch baseType & 0x1F {
        case 0x01: return raw == 0x7F ? nil : Double(Int8(truncatingIfNeeded: raw))
        case 0x03: return raw == 0x7FFF ? nil : Double(Int16(truncatingIfNeeded: raw))
        case 0x05: return raw == 0x7FFF_FFFF ? nil : Double(Int32(truncatingIfNeeded: raw))
        case 0x0E: return raw == 0x7FFF_FFFF_FFFF_FFFF ? nil : Double(Int64(bitPattern: raw))
        case 0x08:
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: raw))
            return raw == 0xFFFF_FFFF || !float.isFinite ? nil : Double(float)
        case 0x09:
            let double = Double(bitPattern: raw)
            return raw == UInt64.max || !double.isFinite ? nil : double
        case 0x0A, 0x0B, 0x0C, 0x10: return raw == 0 ? nil : Double(raw)
        default:
            let allOnes: UInt64 = size == 8 ? .max : (1 << (UInt64(size) * 8)) - 1
            return raw == allOnes ? nil : Double(raw)
        }
    }

    /// The field's bytes as an unsigned integer in the message's byte order; nil for a field
    /// that is not a single number.
    private func raw(in message: UnsafePointer<UInt8>, bigEndian: Bool) -> UInt64? {
        guard let expected = Self.size(ofBaseType: baseType), expected == size else { return nil }
        var raw: UInt64 = 0
        if bigEndian {
            for index in 0..<size { raw = raw << 8 | UInt64(message[offset + index]) }
        } else {
            for index in (0..<size).reversed() { raw = raw << 8 | UInt64(message[offset + index]) }
        }
        return raw
    }

    /// The size of one value of a numeric base type (the low five bits of the type byte name
    /// it: 0 enum … 16 uint64z); nil for strings (7) and unknown types.
    static func size(ofBaseType baseType: UInt8) -> Int? {
        switch baseType & 0x1F {
        case 0x00, 0x01, 0x02, 0x0A, 0x0D: 1
        case 0x03, 0x04, 0x0B: 2
        case 0x05, 0x06, 0x08, 0x0C: 4
        case 0x09, 0x0E, 0x0F, 0x10: 8
        default: nil
        }
    }
}
