/// A tar archive's regular files (POSIX ustar and GNU tar, as Google Takeout's `.tgz` exports are
/// written): 512-byte headers, each followed by its member's bytes padded to 512. Names longer than
/// 100 bytes come from ustar's `prefix` field, a GNU `././@LongLink` entry (type `L`) or a pax
/// extended header's `path` record (type `x`); other pax records are passed over.
enum TarArchive {
    struct Member: Sendable, Equatable {
        var path: String
        /// The member's bytes within the archive.
        var range: Range<Int>
    }

    /// Whether `prefix` starts with a ustar or GNU tar header ("ustar" at byte 257).
    static func isTar(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 512 && Array(prefix[257..<262]) == Array("ustar".utf8)
    }

    /// The regular files of the tar archive `file`, in order; damage is an `archive` error naming
    /// the header's offset.
    static func members(of file: ArchiveFile) throws(ImportError) -> [Member] {
        var members: [Member] = []
        var offset = 0
        var longName: String?
        while offset + 512 <= file.size {
            let header = try file.bytes(at: offset, count: 512)
            if header.allSatisfy({ $0 == 0 }) { break }  // the end-of-archive blocks
            guard header.count == 512, checksumMatches(header) else {
                throw ImportError(.archive, "the tar header's checksum does not match: the archive is damaged", file: file.name, position: .byteOffset(offset))
            }
            guard let size = number(header[124..<136]), size >= 0, offset + 512 + size <= file.size else {
                throw ImportError(.archive, "a tar member's size is unreadable or runs past the end of the archive", file: file.name, position: .byteOffset(offset))
            }
            let data = offset + 512
            let type = header[156]
            switch type {
            case UInt8(ascii: "L"):
                longName = text(try file.bytes(at: data, count: min(size, 64 * 1024))[...])
            case UInt8(ascii: "x"):
                longName = paxPath(try file.bytes(at: data, count: min(size, 64 * 1024)))
            case 0, UInt8(ascii: "0"), UInt8(ascii: "7"):
                var path = longName ?? text(header[0..<100])
                if longName == nil, Array(header[257..<262]) == Array("ustar".utf8), header[345] != 0 {
                    path = text(header[345..<500]) + "/" + path
                }
                members.append(Member(path: path, range: data..<data + size))
                longName = nil
            default:
                longName = nil  // folders, links, pax headers: nothing to read
            }
            offset = data + (size + 511) / 512 * 512
        }
        return members
    }

    /// The `path` record of a pax extended header: records are `LENGTH KEY=VALUE\n`.
    private static func paxPath(_ data: [UInt8]) -> String? {
        for record in data.split(separator: UInt8(ascii: "\n")) {
            guard let space = record.firstIndex(of: UInt8(ascii: " ")) else { continue }
            let field = record[record.index(after: space)...]
            if field.starts(with: Array("path=".utf8)) { return String(decoding: field.dropFirst(5), as: UTF8.self) }
        }
        return nil
    }

    /// The bytes up to the first NUL, as UTF-8.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// An octal field (spaces and NULs around it), or GNU's base-256 form for sizes of 8 GiB and more.
    private static func number(_ field: ArraySlice<UInt8>) -> Int? {
        if let first = field.first, first & 0x80 != 0 {
            return field.dropFirst().reduce(Int(first & 0x7F)) { value, byte in value > Int.max >> 9 ? Int.max : value << 8 | Int(byte) }
        }
        var value = 0
        var digits = 0
        for byte in field {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                guard value <= Int.max >> 4 else { return nil }
                value = value * 8 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            case UInt8(ascii: " "), 0:
                if digits > 0 { return value }
            default:
                return nil
            }
        }
        return digits > 0 ? value : nil
    }

    /// The header's checksum: the sum of its bytes with the checksum field read as spaces.
    private static func checksumMatches(_ header: [UInt8]) -> Bool {
        guard let recorded = number(header[148..<156]) else { return false }
        var sum = 0
        for (index, byte) in header.enumerated() { sum += (148..<156).contains(index) ? 32 : Int(byte) }
        return sum == recorded
    }
}
