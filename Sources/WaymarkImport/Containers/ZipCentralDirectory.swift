/// Reads a zip archive's table of contents: the end-of-central-directory record (found by
/// searching back from the end over an archive comment of up to 65,535 bytes), the ZIP64
/// end record when the archive has one (more than 65,535 entries, or a directory beyond 4 GiB
/// as Google Takeout's large archives have), then every central directory header, streamed.
/// Layouts: PKWARE's APPNOTE.TXT 6.3, sections 4.3.12, 4.3.14–4.3.16 and 4.5.3.
enum ZipCentralDirectory {
    /// Whether `prefix` starts like a zip archive: a local file header, or the end record of an
    /// empty archive.
    static func isZip(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 4 && prefix[0] == 0x50 && prefix[1] == 0x4B
            && ((prefix[2] == 3 && prefix[3] == 4) || (prefix[2] == 5 && prefix[3] == 6))
    }

    static func members(of file: ArchiveFile) throws(ImportError) -> [ZipMember] {
        let end = try endRecord(of: file)
        let directory = ImportInput(name: file.name, size: end.directorySize, producer: file.producer(of: end.directoryOffset..<end.directoryOffset + end.directorySize, shownAs: file.name))
        var members: [ZipMember] = []
        members.reserveCapacity(min(end.entryCount, 1 << 16))
        while members.count < end.entryCount {
            let at = end.directoryOffset + directory.offset
            guard let header = try readBlock(directory, 46, at: at, in: file) else {
                throw damaged("the central directory ends after \(members.count) of its \(end.entryCount) entries", at: at, in: file)
            }
            guard header.zipUInt32(0) == 0x0201_4B50 else {
                throw damaged("central directory entry \(members.count + 1) has no header signature", at: at, in: file)
            }
            let nameLength = Int(header.zipUInt16(28)), extraLength = Int(header.zipUInt16(30)), commentLength = Int(header.zipUInt16(32))
            guard let name = try readBlock(directory, nameLength, at: at, in: file),
                let extra = try readBlock(directory, extraLength, at: at, in: file),
                try readBlock(directory, commentLength, at: at, in: file) != nil
            else { throw damaged("central directory entry \(members.count + 1) is cut short", at: at, in: file) }
            var member = ZipMember(
                path: String(decoding: name, as: UTF8.self), flags: header.zipUInt16(8), method: header.zipUInt16(10),
                crc32: header.zipUInt32(16), compressedSize: Int(header.zipUInt32(20)), uncompressedSize: Int(header.zipUInt32(24)),
                localHeaderOffset: Int(header.zipUInt32(42)))
            try applyZip64(extra, to: &member, disk: header.zipUInt16(34), at: at, in: file)
            guard member.localHeaderOffset < file.size, member.compressedSize <= file.size else {
                throw damaged("entry \(member.path) lies beyond the end of the file", at: at, in: file)
            }
            members.append(member)
        }
        return members
    }

    /// Where the data of `member` starts: after its local header, whose name and extra field
    /// may differ in length from the central directory's.
    static func dataOffset(of member: ZipMember, in file: ArchiveFile) throws(ImportError) -> Int {
        let header = try file.bytes(at: member.localHeaderOffset, count: 30)
        guard header.count == 30, header.zipUInt32(0) == 0x0403_4B50 else {
            throw damaged("entry \(member.path) has no local header at byte \(member.localHeaderOffset)", at: member.localHeaderOffset, in: file)
        }
        let start = member.localHeaderOffset + 30 + Int(header.zipUInt16(26)) + Int(header.zipUInt16(28))
        guard member.compressedSize <= file.size - start else {
            throw ImportError(
                .truncated, "entry \(member.path)'s data reaches byte \(start + member.compressedSize), beyond the file's end (\(file.size) bytes)",
                file: file.name, position: .byteOffset(start))
        }
        return start
    }

    private struct EndRecord {
        var entryCount: Int
        var directoryOffset: Int
        var directorySize: Int
    }

    private static func endRecord(of file: ArchiveFile) throws(ImportError) -> EndRecord {
        let tailStart = max(0, file.size - (22 + 65_535))
        let tail = try file.bytes(at: tailStart, count: file.size - tailStart)
        guard let at = findEndRecord(in: tail) else {
            throw ImportError(
                .archive, "not a complete zip archive: no end-of-central-directory record in its last \(tail.count) bytes (the file may be cut short)",
                file: file.name)
        }
        let record = Array(tail[at..<at + 22])
        var end = EndRecord(entryCount: Int(record.zipUInt16(10)), directoryOffset: Int(record.zipUInt32(16)), directorySize: Int(record.zipUInt32(12)))
        var disks = (record.zipUInt16(4), record.zipUInt16(6))
        if at >= 20, tail.zipUInt32(at - 20) == 0x0706_4B50 {
            let zip64At = Int(clamping: tail.zipUInt64(at - 20 + 8))
            let zip64 = try file.bytes(at: zip64At, count: 56)
            guard zip64.count == 56, zip64.zipUInt32(0) == 0x0606_4B50 else {
                throw damaged("the ZIP64 end record is missing at byte \(zip64At)", at: zip64At, in: file)
            }
            end = EndRecord(entryCount: Int(clamping: zip64.zipUInt64(32)), directoryOffset: Int(clamping: zip64.zipUInt64(48)), directorySize: Int(clamping: zip64.zipUInt64(40)))
            disks = (UInt16(clamping: zip64.zipUInt32(16)), UInt16(clamping: zip64.zipUInt32(20)))
        } else if record.zipUInt16(10) == 0xFFFF || record.zipUInt32(16) == 0xFFFF_FFFF || record.zipUInt32(12) == 0xFFFF_FFFF {
            throw damaged("the end record points to a ZIP64 record that is missing", at: tailStart + at, in: file)
        }
        guard disks == (0, 0) else {
            throw ImportError(.archive, "a zip archive split across several files (multi-part zip): join the parts into one archive first", file: file.name)
        }
        guard end.directorySize <= file.size && end.directoryOffset <= file.size - end.directorySize else {
            throw damaged("the central directory (\(end.directorySize) bytes at byte \(end.directoryOffset)) lies beyond the end of the file", at: tailStart + at, in: file)
        }
        return end
    }

    /// The last `PK\5\6` whose comment length reaches exactly the end; failing that, the last one
    /// whose comment fits (an archive with bytes appended).
    private static func findEndRecord(in tail: [UInt8]) -> Int? {
        guard tail.count >= 22 else { return nil }
        var fallback: Int?
        for at in stride(from: tail.count - 22, through: 0, by: -1) where tail.zipUInt32(at) == 0x0605_4B50 {
            let reach = at + 22 + Int(tail.zipUInt16(at + 20))
            if reach == tail.count { return at }
            if reach < tail.count && fallback == nil { fallback = at }
        }
        return fallback
    }

    /// ZIP64's extended information extra field (header 0x0001): the 64-bit values of the fields
    /// the header left at 0xFFFFFFFF, in the order uncompressed size, compressed size, offset.
    private static func applyZip64(_ extra: [UInt8], to member: inout ZipMember, disk: UInt16, at: Int, in file: ArchiveFile) throws(ImportError) {
        var index = 0
        while index + 4 <= extra.count {
            let id = extra.zipUInt16(index), length = Int(extra.zipUInt16(index + 2))
            let body = index + 4
            index = body + length
            guard id == 0x0001, index <= extra.count else { continue }
            var field = body
            func next() throws(ImportError) -> Int {
                guard field + 8 <= body + length else {
                    throw damaged("entry \(member.path)'s ZIP64 extra field is too short", at: at, in: file)
                }
                defer { field += 8 }
                return Int(clamping: extra.zipUInt64(field))
            }
            if member.uncompressedSize == 0xFFFF_FFFF { member.uncompressedSize = try next() }
            if member.compressedSize == 0xFFFF_FFFF { member.compressedSize = try next() }
            if member.localHeaderOffset == 0xFFFF_FFFF { member.localHeaderOffset = try next() }
        }
        guard disk == 0 || disk == 0xFFFF else {
            throw ImportError(.archive, "a zip archive split across several files (multi-part zip): join the parts into one archive first", file: file.name)
        }
    }

    /// `count` bytes from the directory; nil when it ends first.
    private static func readBlock(_ directory: ImportInput, _ count: Int, at: Int, in file: ArchiveFile) throws(ImportError) -> [UInt8]? {
        if count == 0 { return [] }
        do throws(ImportError) { return try directory.read(exactly: count) } catch where error.code == .truncated { return nil }
    }

    private static func damaged(_ message: String, at offset: Int, in file: ArchiveFile) -> ImportError {
        ImportError(.archive, "damaged zip archive: \(message)", file: file.name, position: .byteOffset(offset))
    }
}

extension [UInt8] {
    /// Little-endian integers at a byte offset, as zip and gzip store them.
    fileprivate func zipUInt16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    fileprivate func zipUInt32(_ at: Int) -> UInt32 { UInt32(zipUInt16(at)) | UInt32(zipUInt16(at + 2)) << 16 }
    fileprivate func zipUInt64(_ at: Int) -> UInt64 { UInt64(zipUInt32(at)) | UInt64(zipUInt32(at + 4)) << 32 }
}
