import CZlib

/// Checks a zip entry's bytes as they pass: their CRC-32 (zlib's `crc32`) and count against the
/// central directory's, at the end of the entry. A mismatch is an `archive` error at the
/// entry's end; the bytes before it were already returned (as for any damaged input).
enum ZipEntryCheck {
    static func producer(_ member: ZipMember, name: String, source: @escaping ImportInput.Producer) -> ImportInput.Producer {
        var crc = crc32(0, nil, 0)
        var count = 0
        var checked = false
        return { buffer throws(ImportError) in
            let got = try source(buffer)
            if got > 0 {
                crc = crc32_z(crc, buffer.baseAddress!.assumingMemoryBound(to: Bytef.self), got)
                count += got
                guard count <= member.uncompressedSize else {
                    throw ImportError(.archive, "the entry inflates to more than the \(member.uncompressedSize) bytes the archive's directory records", file: name, position: .byteOffset(member.uncompressedSize))
                }
                return got
            }
            guard !checked else { return 0 }
            checked = true
            guard count == member.uncompressedSize else {
                throw ImportError(.archive, "the entry ends after \(count) bytes; the archive's directory records \(member.uncompressedSize)", file: name, position: .byteOffset(count))
            }
            guard UInt32(truncatingIfNeeded: crc) == member.crc32 else {
                throw ImportError(
                    .archive, "CRC-32 mismatch: the entry's bytes give \(hex(UInt32(truncatingIfNeeded: crc))), the archive records \(hex(member.crc32)); the entry is damaged",
                    file: name, position: .byteOffset(count))
            }
            return 0
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
