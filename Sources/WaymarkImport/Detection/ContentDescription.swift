/// What an input that is no format Waymark reads looks like, from its first bytes, for the
/// `unknown-format` message and the list of skipped entries: "a PNG image", "an HTML document",
/// "XML whose root element is <osm>", "text beginning \"Date,Steps\"", "binary data (00 0d 3f…)".
enum ContentDescription {
    static func describe(_ prefix: [UInt8]) -> String {
        if prefix.isEmpty { return "an empty file" }
        for (magic, offset, what) in signatures where prefix.count >= offset + magic.count {
            if Array(prefix[offset..<offset + magic.count]) == magic { return what }
        }
        if prefix.starts(with: [0xFF, 0xFE]) || prefix.starts(with: [0xFE, 0xFF]) {
            return "UTF-16 text (convert it to UTF-8)"
        }
        return prefix.withUnsafeBufferPointer { bytes in
            let text = DetectionText(bytes)
            let start = text.skippingSpace(from: text.start)
            if start < bytes.count && bytes[start] == UInt8(ascii: "<") {
                let root = text.xmlRootName(from: start)
                if let root, root.lowercased() == "html" { return "an HTML document" }
                if let root { return "XML whose root element is <\(root)>, not <gpx>, <kml> or <TrainingCenterDatabase>" }
                return "XML or HTML without a root element in its first \(bytes.count) bytes"
            }
            guard let line = text.firstContentLine() else { return "text with only blank and # comment lines" }
            let shown = bytes[line].prefix(60)
            guard shown.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                return "binary data (\(bytes.prefix(8).map(hex).joined(separator: " "))…)"
            }
            let quoted = String(decoding: UnsafeBufferPointer(rebasing: shown), as: UTF8.self)
            return "text beginning \"\(quoted)\(line.count > shown.count ? "…" : "")\""
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// Magic numbers: (bytes, offset, description).
    private static let signatures: [([UInt8], Int, String)] = [
        ([0x89, 0x50, 0x4E, 0x47], 0, "a PNG image"),
        ([0xFF, 0xD8, 0xFF], 0, "a JPEG image"),
        (Array("GIF8".utf8), 0, "a GIF image"),
        (Array("RIFF".utf8), 0, "a RIFF file (WebP image, WAV or AVI)"),
        (Array("ftyp".utf8), 4, "an MP4/HEIC/QuickTime media file"),
        (Array("%PDF".utf8), 0, "a PDF document"),
        ([0x50, 0x4B, 0x03, 0x04], 0, "a zip archive"),
        ([0x1F, 0x8B], 0, "gzip-compressed data"),
        (Array("BZh".utf8), 0, "bzip2-compressed data (decompress it first)"),
        ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], 0, "xz-compressed data (decompress it first)"),
        ([0x28, 0xB5, 0x2F, 0xFD], 0, "zstd-compressed data (decompress it first)"),
        ([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], 0, "a 7-Zip archive (extract it first)"),
        (Array("ustar".utf8), 257, "a tar archive inside an archive (extract it first: tar xf)"),
        (Array("SQLite format 3".utf8), 0, "an SQLite database"),
        ([0x7F, 0x45, 0x4C, 0x46], 0, "an ELF executable"),
    ]
}
