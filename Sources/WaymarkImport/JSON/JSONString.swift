import WaymarkCore

/// A JSON string's bytes between its quotes, as they are in the input buffer (valid until the
/// reader reads on), decoded only when a decoder keeps it.
struct JSONString {
    let raw: UnsafeBufferPointer<UInt8>
    /// Whether it holds a backslash escape (then `raw` is not its text).
    let escaped: Bool

    /// Whether its text is `name`: by the bytes when it has no escape.
    func equals(_ name: StaticString) -> Bool {
        if escaped { return decoded == String(describing: name) }
        let count = name.utf8CodeUnitCount
        guard raw.count == count else { return false }
        let pattern = name.utf8Start
        for k in 0..<count where raw[k] != pattern[k] { return false }
        return true
    }

    /// The text, escapes decoded (an unpaired surrogate becomes U+FFFD).
    var decoded: String {
        guard escaped else { return String(decoding: raw, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        var k = 0
        func flush() {
            scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
            utf8.removeAll(keepingCapacity: true)
        }
        while k < raw.count {
            let byte = raw[k]
            guard byte == UInt8(ascii: "\\"), k + 1 < raw.count else {
                utf8.append(byte)
                k += 1
                continue
            }
            let kind = raw[k + 1]
            k += 2
            switch kind {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var code = hex4(at: k)
                k += 4
                if (0xD800..<0xDC00).contains(code), k + 6 <= raw.count, raw[k] == UInt8(ascii: "\\"),
                    raw[k + 1] == UInt8(ascii: "u")
                {
                    let low = hex4(at: k + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        k += 6
                    }
                }
                flush()
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default: utf8.append(kind)
            }
        }
        flush()
        return String(scalars)
    }

    private func hex4(at start: Int) -> UInt32 {
        var value: UInt32 = 0
        for k in start..<min(start + 4, raw.count) { value = value << 4 | UInt32(Self.hexValue(raw[k]) ?? 0) }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// An RFC 3339 time (offsets allowed), or nil.
    var rfc3339: Timestamp? { escaped ? Timestamp(rfc3339: decoded) : Timestamp(rfc3339: raw) }

    /// The text as a decimal integer (Google's `timestampMs` strings), or nil.
    var integer: Int64? {
        guard !escaped, !raw.isEmpty, raw.count <= 18 else { return nil }
        var value: Int64 = 0
        var k = 0
        let negative = raw[0] == UInt8(ascii: "-")
        if negative { k = 1 }
        guard k < raw.count else { return nil }
        while k < raw.count {
            let digit = raw[k] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
            k += 1
        }
        return negative ? -value : value
    }
}
