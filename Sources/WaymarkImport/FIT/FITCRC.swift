/// The FIT protocol's 16-bit CRC: the reflected CRC-16 with polynomial 0x8005, initial value 0
/// and no final XOR (CRC-16/ARC), computed over the header's first 12 bytes for the header CRC
/// and over every byte from the header to the last data message for the file CRC.
struct FITCRC {
    private(set) var value: UInt16 = 0

    /// The byte-at-a-time table for the reflected polynomial 0xA001.
    private static let table: [UInt16] = (0..<256).map { index in
        var crc = UInt16(index)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        return crc
    }

    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        var crc = value
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = (crc >> 8) ^ table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] }
        }
        value = crc
    }

    static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt16 {
        var crc = FITCRC()
        crc.update(bytes)
        return crc.value
    }
}
