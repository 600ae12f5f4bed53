import WaymarkCore

// What XML allows in text, checked once an element's text is complete (`readText`): the
// scanner's fast loop looks only for `<` and `&`.
extension XMLScanner {
    /// XML's rules for the text just read:
    /// valid UTF-8, and no character XML forbids — the C0 controls but tab, newline and carriage
    /// return, NUL among them. Checked once over the element's whole text, so a character split
    /// across two input chunks is seen whole; located at the text's start.
    func checkText() throws {
        var k = 0
        while k < text.count {
            let b = text[k]
            if b < 0x80 {
                guard b >= 0x20 || b == 0x09 || b == 0x0A || b == 0x0D else {
                    let hex = String(b, radix: 16, uppercase: true)
                    throw GPXError(
                        code: .forbiddenCharacter,
                        message: "the control character U+\(hex.count < 2 ? "000" : "00")\(hex) (byte \(k + 1) of the text of <\(openName(openStarts.count - 1))>) is not allowed in XML",
                        location: location(atOffset: textStartOffset))
                }
                k += 1
                continue
            }
            guard let length = Self.utf8Length(text, at: k) else {
                throw GPXError(
                    code: .invalidUTF8, message: "invalid UTF-8 at byte \(k + 1) of the text of <\(openName(openStarts.count - 1))>",
                    location: location(atOffset: textStartOffset))
            }
            k += length
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `bytes[i]` (not ASCII), or nil.
    static func utf8Length<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at i: Int) -> Int? where Bytes.Index == Int {
        let b0 = bytes[i]
        let (length, minimum, first): (Int, UInt32, UInt32)
        switch b0 {
        case 0xC2...0xDF: (length, minimum, first) = (2, 0x80, UInt32(b0 & 0x1F))
        case 0xE0...0xEF: (length, minimum, first) = (3, 0x800, UInt32(b0 & 0x0F))
        case 0xF0...0xF4: (length, minimum, first) = (4, 0x10000, UInt32(b0 & 0x07))
        default: return nil
        }
        guard bytes.count - i >= length else { return nil }
        var scalar = first
        for k in 1..<length {
            let b = bytes[i + k]
            guard b & 0xC0 == 0x80 else { return nil }
            scalar = scalar << 6 | UInt32(b & 0x3F)
        }
        guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return nil }
        return length
    }
}
