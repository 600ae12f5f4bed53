/// A ZIP archive (PKWARE's APPNOTE 6.3) of stored entries, built in memory: what a KMZ is. The
/// entries are not compressed (the images in a KMZ already are), their time is 1980-01-01
/// 00:00 (ZIP's epoch), so the same content gives the same bytes. Names are UTF-8, flagged so.
public struct ZipArchive: Sendable {
    private var data: [UInt8] = []
    private var central: [UInt8] = []
    private var count = 0

    public init() {}

    /// Appends an entry; the first one of a KMZ must be its `doc.kml`.
    public mutating func add(_ name: String, _ bytes: [UInt8]) {
        precondition(bytes.count < Int(UInt32.max) && data.count < Int(UInt32.max), "ZIP64 is not written")
        let nameBytes = Array(name.utf8)
        let crc = CRC32.checksum(bytes)
        let offset = UInt32(data.count)
        // Local file header.
        data += Self.le32(0x0403_4b50) + Self.le16(20) + Self.le16(0x0800) + Self.le16(0) + Self.le16(0) + Self.le16(0x0021)
        data += Self.le32(crc) + Self.le32(UInt32(bytes.count)) + Self.le32(UInt32(bytes.count))
        data += Self.le16(UInt16(nameBytes.count)) + Self.le16(0) + nameBytes + bytes
        // Its central directory entry.
        central += Self.le32(0x0201_4b50) + Self.le16(20) + Self.le16(20) + Self.le16(0x0800) + Self.le16(0) + Self.le16(0)
        central += Self.le16(0x0021) + Self.le32(crc) + Self.le32(UInt32(bytes.count)) + Self.le32(UInt32(bytes.count))
        central += Self.le16(UInt16(nameBytes.count)) + Self.le16(0) + Self.le16(0) + Self.le16(0) + Self.le16(0) + Self.le32(0)
        central += Self.le32(offset) + nameBytes
        count += 1
    }

    /// The archive: the entries, the central directory, its end record.
    public var bytes: [UInt8] {
        let entries = UInt16(clamping: count)
        return data + central + Self.le32(0x0605_4b50) + Self.le16(0) + Self.le16(0) + Self.le16(entries) + Self.le16(entries)
            + Self.le32(UInt32(central.count)) + Self.le32(UInt32(data.count)) + Self.le16(0)
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }

    private static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xff), UInt8((value >> 8) & 0xff), UInt8((value >> 16) & 0xff), UInt8(value >> 24)]
    }
}

/// CRC-32 as ZIP and PNG use it (polynomial 0xEDB88320, reflected).
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xedb8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
        return crc ^ 0xffff_ffff
    }
}
