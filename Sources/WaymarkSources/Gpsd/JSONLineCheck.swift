/// Whether a line from gpsd is exactly one well-formed JSON object (RFC 8259, at most 64 levels
/// deep), before libgps' own parser sees it: fuzzing found lines that send `gps_unpack` into a
/// loop it never leaves (`{""},d"class":"TPV"` — a value, then more after it), which would stop
/// the reader thread, and with it the daemon's shutdown. gpsd writes one object a line, so
/// nothing it sends is refused. Allocation-free; one pass.
struct JSONLineCheck {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    static let maximumDepth = 64

    static func isOneObject(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var check = JSONLineCheck(bytes: line)
        check.skipSpace()
        guard check.peek == UInt8(ascii: "{"), check.value(depth: 0) else { return false }
        check.skipSpace()
        return check.index == line.count
    }

    /// Whether a line that is one JSON object is a report as gpsd writes it: `"class"` its first
    /// member, its value one of `classes`, and no other `"class"` anywhere in the line.
    static func isPlainReport(_ line: UnsafeBufferPointer<UInt8>, classes: Set<String>) -> Bool {
        var check = JSONLineCheck(bytes: line)
        check.skipSpace()
        guard check.expect(UInt8(ascii: "{")) else { return false }
        check.skipSpace()
        let key = Array("\"class\"".utf8)
        guard line.count - check.index >= key.count, line[check.index..<check.index + key.count].elementsEqual(key) else { return false }
        check.index += key.count
        check.skipSpace()
        guard check.expect(UInt8(ascii: ":")) else { return false }
        check.skipSpace()
        let nameStart = check.index + 1
        guard check.string() else { return false }
        let name = String(decoding: UnsafeBufferPointer(rebasing: line[nameStart..<check.index - 1]), as: UTF8.self)
        guard classes.contains(name) else { return false }
        // No second "class" key (or value) anywhere after it.
        var index = check.index
        while index + key.count <= line.count {
            if line[index] == key[0], line[index..<index + key.count].elementsEqual(key) { return false }
            index += 1
        }
        return true
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func expect(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    private mutating func value(depth: Int) -> Bool {
        guard depth < Self.maximumDepth, let byte = peek else { return false }
        switch byte {
        case UInt8(ascii: "{"):
            index += 1
            skipSpace()
            if expect(UInt8(ascii: "}")) { return true }
            while true {
                skipSpace()
                guard string() else { return false }
                skipSpace()
                guard expect(UInt8(ascii: ":")) else { return false }
                skipSpace()
                guard value(depth: depth + 1) else { return false }
                skipSpace()
                if expect(UInt8(ascii: "}")) { return true }
                guard expect(UInt8(ascii: ",")) else { return false }
            }
        case UInt8(ascii: "["):
            index += 1
            skipSpace()
            if expect(UInt8(ascii: "]")) { return true }
            while true {
                skipSpace()
                guard value(depth: depth + 1) else { return false }
                skipSpace()
                if expect(UInt8(ascii: "]")) { return true }
                guard expect(UInt8(ascii: ",")) else { return false }
            }
        case UInt8(ascii: "\""):
            return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default:
            return number()
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// A string: no raw control characters, escapes as RFC 8259 has them.
    private mutating func string() -> Bool {
        guard expect(UInt8(ascii: "\"")) else { return false }
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return true
            case UInt8(ascii: "\\"):
                guard let escaped = peek else { return false }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    continue
                case UInt8(ascii: "u"):
                    for _ in 0..<4 {
                        guard let hex = peek, isHexDigit(hex) else { return false }
                        index += 1
                    }
                default: return false
                }
            case ..<0x20: return false
            default: continue
            }
        }
        return false
    }

    private mutating func number() -> Bool {
        _ = expect(UInt8(ascii: "-"))
        guard digits() > 0 else { return false }
        if expect(UInt8(ascii: ".")) { guard digits() > 0 else { return false } }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return true
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = peek, byte >= 0x30, byte <= 0x39 { index += 1 }
        return index - start
    }

    private func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }
}
