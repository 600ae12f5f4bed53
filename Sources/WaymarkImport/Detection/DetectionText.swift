/// The scanning `ImportFormat.detect` does over a prefix: skipping a byte order mark, space and
/// comment lines, finding an XML root element, and recognising the first line of each line
/// format. Every rule reads only the prefix; none allocates per byte.
struct DetectionText {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The first byte after a UTF-8 byte order mark.
    let start: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        start = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    func skippingSpace(from index: Int) -> Int {
        var index = index
        while index < bytes.count && Self.isSpace(bytes[index]) { index += 1 }
        return index
    }

    /// Whether `literal` is at `index`.
    func has(_ literal: StaticString, at index: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index >= 0 && index + count <= bytes.count else { return false }
        let pointer = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] { return false }
        return true
    }

    /// The index just after the first `literal` at or after `index`, or nil.
    func after(_ literal: StaticString, from index: Int) -> Int? {
        var index = index
        while index + literal.utf8CodeUnitCount <= bytes.count {
            if has(literal, at: index) { return index + literal.utf8CodeUnitCount }
            index += 1
        }
        return nil
    }

    // MARK: XML

    /// The name of the root element (its local name, without a namespace prefix) of XML
    /// starting at `index` (a `<`), skipping the declaration, processing instructions, comments
    /// and a doctype with its internal subset. Nil when the prefix ends before the root.
    func xmlRootName(from index: Int) -> String? {
        var index = index
        while true {
            index = skippingSpace(from: index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else { return nil }
            if has("<?", at: index) {
                guard let next = after("?>", from: index + 2) else { return nil }
                index = next
            } else if has("<!--", at: index) {
                guard let next = after("-->", from: index + 4) else { return nil }
                index = next
            } else if has("<!", at: index) {
                guard let next = endOfDeclaration(from: index + 2) else { return nil }
                index = next
            } else {
                return elementName(at: index + 1)
            }
        }
    }

    /// The index after the `>` closing `<!DOCTYPE …>`, past a `[…]` internal subset.
    private func endOfDeclaration(from index: Int) -> Int? {
        var depth = 0
        for position in index..<bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ">") where depth <= 0: return position + 1
            default: break
            }
        }
        return nil
    }

    /// The element name at `index`, without its namespace prefix.
    func elementName(at index: Int) -> String? {
        var end = index
        var localStart = index
        while end < bytes.count {
            let byte = bytes[end]
            if Self.isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { break }
            if byte == UInt8(ascii: ":") { localStart = end + 1 }
            end += 1
        }
        guard end < bytes.count, end > localStart else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[localStart..<end]), as: UTF8.self)
    }

    // MARK: Lines

    /// The first line that is neither blank nor a `#` comment, without its terminator; nil when
    /// the prefix has none (or ends inside it before any content).
    func firstContentLine() -> Range<Int>? {
        var index = start
        while index < bytes.count {
            let line = self.line(at: index)
            let content = skippingSpace(from: line.lowerBound)
            if content < line.upperBound && bytes[content] != UInt8(ascii: "#") { return line }
            index = line.upperBound + 1
        }
        return nil
    }

    /// The line starting at `index`, without `\n` or `\r\n`.
    func line(at index: Int) -> Range<Int> {
        var end = index
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        var contentEnd = end
        if contentEnd > index && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
        return index..<contentEnd
    }

    /// `{"class":` (spaces allowed around the key), as every report gpsd writes begins.
    func isGpsdReport(at index: Int) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return false }
        let key = skippingSpace(from: index + 1)
        guard has("\"class\"", at: key) else { return false }
        let colon = skippingSpace(from: key + 7)
        return colon < bytes.count && bytes[colon] == UInt8(ascii: ":")
    }

    /// NMEA 0183: the first content line is a sentence; or it is a sentence's end (`…*HH`) and
    /// the second line a sentence, as a capture that starts inside a sentence is; or, for a
    /// capture that starts with a receiver's binary output (u-blox interleaves UBX), three lines
    /// of the prefix are sentences with a correct checksum.
    func isNMEA(firstLine line: Range<Int>) -> Bool {
        if isSentence(line) { return true }
        let second = self.line(at: min(line.upperBound + 1, bytes.count))
        if line.count >= 3 && bytes[line.upperBound - 3] == UInt8(ascii: "*") && isSentence(second) { return true }
        var checked = 0
        var index = line.upperBound
        while index < bytes.count && checked < 3 {
            let next = self.line(at: index)
            if hasValidChecksum(next) { checked += 1 }
            index = next.upperBound + 1
        }
        return checked >= 3
    }

    /// `$` or `!`, then an address of three or more upper-case letters or digits (talker and
    /// type: `GPRMC`, `PGRME`, `AIVDM`) and a comma or the `*` of a checksum; or any `$` line
    /// whose checksum is right (SiRF's `$PSRFTXTVersion …*78`).
    private func isSentence(_ line: Range<Int>) -> Bool {
        guard line.count >= 6, bytes[line.lowerBound] == UInt8(ascii: "$") || bytes[line.lowerBound] == UInt8(ascii: "!") else {
            return false
        }
        var index = line.lowerBound + 1
        while index < line.upperBound {
            let byte = bytes[index]
            guard (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || Self.isDigit(byte) else { break }
            index += 1
        }
        let address = index - line.lowerBound - 1
        if address >= 3 && index < line.upperBound && (bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: "*")) {
            return true
        }
        return hasValidChecksum(line)
    }

    /// `$…*HH` (or `!…*HH`) where HH is the XOR of the bytes between the two, in hex (either case).
    private func hasValidChecksum(_ line: Range<Int>) -> Bool {
        guard line.count >= 5, bytes[line.lowerBound] == UInt8(ascii: "$") || bytes[line.lowerBound] == UInt8(ascii: "!"),
            bytes[line.upperBound - 3] == UInt8(ascii: "*")
        else { return false }
        var sum: UInt8 = 0
        for index in (line.lowerBound + 1)..<(line.upperBound - 3) { sum ^= bytes[index] }
        let digits: StaticString = "0123456789abcdef"
        // `| 0x20` folds A–F to a–f and leaves digits as they are.
        return bytes[line.upperBound - 2] | 0x20 == digits.utf8Start[Int(sum >> 4)]
            && bytes[line.upperBound - 1] | 0x20 == digits.utf8Start[Int(sum & 15)]
    }

    /// OwnTracks Recorder's `.rec` line: a UTC time `YYYY-MM-DDTHH:MM:SSZ`, optional spaces,
    /// then a TAB.
    func isRecorderLine(_ line: Range<Int>) -> Bool {
        let pattern: StaticString = "dddd-dd-ddTdd:dd:ddZ"
        let count = pattern.utf8CodeUnitCount
        guard line.count > count else { return false }
        for offset in 0..<count {
            let expected = pattern.utf8Start[offset]
            let byte = bytes[line.lowerBound + offset]
            if expected == UInt8(ascii: "d") ? !Self.isDigit(byte) : byte != expected { return false }
        }
        var index = line.lowerBound + count
        while index < line.upperBound && bytes[index] == 0x20 { index += 1 }
        return index < line.upperBound && bytes[index] == 0x09
    }

    // MARK: CSV

    /// Whether the line is a header whose fields (split by the most frequent of `,` `;` TAB,
    /// quotes removed) include a latitude and a longitude column, by the names the CSV reader
    /// looks for (`CSVColumnRole.names`, after `CSVColumnName`'s normalising: `Latitude (deg)`,
    /// `lat_deg`, `gps_lng`…), so that what is recognised as CSV is what the reader can read.
    func isCSVHeaderWithCoordinates(_ line: Range<Int>) -> Bool {
        let header = UnsafeBufferPointer(rebasing: bytes[line])
        let delimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09]
        let counts = delimiters.map { delimiter in header.reduce(0) { $0 + ($1 == delimiter ? 1 : 0) } }
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] }), counts[best] > 0 else { return false }
        let names = header.split(separator: delimiters[best], omittingEmptySubsequences: false)
            .map { field in CSVColumnName(String(decoding: field, as: UTF8.self).filter { $0 != "\"" }).base }
        return names.contains(where: CSVColumnRole.latitude.names.contains) && names.contains(where: CSVColumnRole.longitude.names.contains)
    }
}
