/// One NMEA 0183 sentence, split into its fields: `$GPRMC,081836,A,3751.65,S,…*75` has the
/// address `GPRMC` and the fields after it. Parsing checks the shape and the checksum, nothing
/// about the fields; ``NMEAFields`` reads those.
struct NMEASentence: Equatable {
    /// The address field without `$`: a talker and a type (`GPRMC`, `GNGGA`), or a
    /// proprietary `P…` address.
    var address: String
    /// The fields after the address, as written.
    var fields: [Substring]
    /// The 1-based column of each field's first character in the line.
    var columns: [Int]

    /// The sentence type: the address without its two-letter talker (`RMC` for `GNRMC`); the
    /// whole address for proprietary sentences.
    var type: Substring {
        address.first == "P" || address.count != 5 ? Substring(address) : address.dropFirst(2)
    }

    /// What a line of a log is.
    enum Line: Equatable {
        case sentence(NMEASentence)
        /// Blank, or a `#` comment (gpsd's logs start with a `#` header).
        case comment
        /// Anything that does not start with `$` or `!`: a binary protocol the receiver
        /// interleaves (UBX, SiRF), a logger's own text. Receivers' logs have them; gpsd skips
        /// them too.
        case other
    }

    /// A problem with a line, at a 1-based column.
    struct Problem: Error, Equatable {
        var code: TrackLogError.Code
        var column: Int
        var message: String
    }

    /// Classifies `line` (without its line end) and splits a sentence. A sentence must be
    /// printable ASCII; its checksum (`*` and two hexadecimal digits), when it has one, must
    /// match. A `*` with nothing after it counts as no checksum (Garmin receivers write one).
    static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(Problem) -> Line {
        var start = 0
        while start < line.count, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        var end = line.count
        while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        guard start < end, line[start] != UInt8(ascii: "#") else { return .comment }
        guard line[start] == UInt8(ascii: "$") || line[start] == UInt8(ascii: "!") else { return .other }
        var bodyEnd = end
        var checksum = UInt8(0)
        for index in (start + 1)..<end {
            let byte = line[index]
            guard byte >= 0x20 && byte < 0x7F else {
                throw Problem(
                    code: .badCharacter, column: index + 1,
                    message: "byte 0x\(hex(byte)) in a sentence; NMEA 0183 is printable ASCII")
            }
            if byte == UInt8(ascii: "*") {
                bodyEnd = index
                break
            }
            checksum ^= byte
        }
        if bodyEnd < end {
            let digits = UnsafeBufferPointer(rebasing: line[(bodyEnd + 1)..<end])
            if !digits.isEmpty {
                guard digits.count == 2, let high = hexValue(digits[0]), let low = hexValue(digits[1]) else {
                    throw Problem(
                        code: .badChecksum, column: bodyEnd + 2,
                        message: "checksum '\(String(decoding: digits, as: UTF8.self))' is not two hexadecimal digits")
                }
                guard high << 4 | low == checksum else {
                    throw Problem(
                        code: .badChecksum, column: bodyEnd + 2,
                        message: "checksum \(hex(high << 4 | low)) does not match the sentence's \(hex(checksum))")
                }
            }
        }
        let body = String(decoding: UnsafeBufferPointer(rebasing: line[(start + 1)..<bodyEnd]), as: UTF8.self)
        var parts = body.split(separator: ",", omittingEmptySubsequences: false)
        var columns: [Int] = []
        columns.reserveCapacity(parts.count)
        var column = start + 2
        for part in parts {
            columns.append(column)
            column += part.utf8.count + 1
        }
        let address = String(parts.removeFirst())
        guard !address.isEmpty else {
            throw Problem(code: .badField, column: start + 2, message: "a sentence without an address (e.g. GPRMC)")
        }
        return .sentence(NMEASentence(address: address, fields: parts, columns: Array(columns.dropFirst())))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
