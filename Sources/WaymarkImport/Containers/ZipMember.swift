/// One file in a zip archive, as its central directory describes it (PKWARE's APPNOTE.TXT,
/// section 4.3.12), with ZIP64's 64-bit sizes and offset (4.5.3) when the archive has them.
struct ZipMember: Sendable, Equatable {
    /// The member's path inside the archive (`Takeout/Location History/Records.json`).
    var path: String
    /// The general purpose bit flag: bit 0 encrypted, bit 3 sizes in a data descriptor.
    var flags: UInt16
    /// 0 stored, 8 deflated; others are refused.
    var method: UInt16
    var crc32: UInt32
    var compressedSize: Int
    var uncompressedSize: Int
    /// Where the member's local header starts in the archive.
    var localHeaderOffset: Int

    var isDirectory: Bool { path.hasSuffix("/") }
    var isEncrypted: Bool { flags & 1 != 0 }

    /// Why Waymark cannot read the member, or nil when it can (stored or deflated, unencrypted).
    var refusal: String? {
        if isEncrypted {
            return "the entry is encrypted: Waymark reads only unencrypted archives; extract it with its password first"
        }
        switch method {
        case 0, 8: return nil
        default:
            let known: [UInt16: String] = [
                1: "shrink", 6: "implode", 9: "deflate64", 12: "bzip2", 14: "LZMA", 93: "zstd", 95: "xz", 98: "PPMd", 99: "AES encryption",
            ]
            let named = known[method].map { " (\($0))" } ?? ""
            return "the entry uses compression method \(method)\(named): Waymark reads stored and deflated entries; re-create the archive with deflate (zip's default)"
        }
    }
}
