/// A FIT file written byte by byte in a test: a 14-byte header (with its CRC), the messages
/// appended, the data size and file CRC filled in by `bytes`. The CRC is computed bit by bit
/// here, independently of the reader's table.
struct FITTestFile {
    var data: [UInt8] = []

    /// A little-endian definition message for `local`: each field as (number, size, base type).
    mutating func define(local: UInt8, global: UInt16, _ fields: [(UInt8, UInt8, UInt8)]) {
        data += [0x40 | local, 0, 0, UInt8(global & 0xFF), UInt8(global >> 8), UInt8(fields.count)]
        for field in fields { data += [field.0, field.1, field.2] }
    }

    /// A `record` definition for `local`: timestamp, position_lat, position_long.
    mutating func defineRecord(local: UInt8 = 0) {
        define(local: local, global: 20, [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85)])
    }

    /// A data message of `defineRecord`'s layout.
    mutating func record(local: UInt8 = 0, time: UInt32, latitude: Double, longitude: Double) {
        data.append(local)
        data += Self.littleEndian(time)
        data += Self.littleEndian(UInt32(bitPattern: Self.semicircles(latitude)))
        data += Self.littleEndian(UInt32(bitPattern: Self.semicircles(longitude)))
    }

    func bytes() -> [UInt8] {
        var header: [UInt8] = [14, 0x20, 0x54, 0x08] + Self.littleEndian(UInt32(data.count)) + Array(".FIT".utf8)
        header += Self.littleEndian16(Self.crc(header))
        let body = header + data
        return body + Self.littleEndian16(Self.crc(body))
    }

    static func semicircles(_ degrees: Double) -> Int32 { Int32((degrees * 2_147_483_648 / 180).rounded()) }

    /// Seconds since the FIT epoch (1989-12-31T00:00:00Z) of a Unix time.
    static func fitTime(unix: Int64) -> UInt32 { UInt32(unix - 631_065_600) }

    static func crc(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func littleEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
}
