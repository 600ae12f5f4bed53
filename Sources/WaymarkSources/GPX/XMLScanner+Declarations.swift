import WaymarkCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Comments, CDATA, declarations, processing instructions and character references: the rarer
// markup of a GPX file, kept apart from the hot path of tags and text in XMLScanner.swift.
extension XMLScanner {
    // MARK: Comments, CDATA, declarations, processing instructions

    func hasPrefix(_ literal: StaticString, at i: Int) -> Bool {
        let n = literal.utf8CodeUnitCount
        return end - i >= n && memcmp(base + i, literal.utf8Start, n) == 0
    }

    /// Finds `terminator` (2 or 3 bytes) from `start` and returns the index after it, and how
    /// far the buffer moved meanwhile. With `dropping`, scanned bytes may leave the buffer;
    /// with `keepingText`, they are appended to `text` (CDATA inside a kept text).
    mutating func skip(
        past terminator: StaticString, from start: Int, what: String, dropping: Bool, keepingText: Bool = false
    ) throws -> (next: Int, shift: Int) {
        let n = terminator.utf8CodeUnitCount
        let first = terminator.utf8Start[0]
        var i = start
        var run = i
        var totalShift = 0
        while true {
            while i < end, base[i] != first { i += 1 }
            if end - i < n {
                if keepingText {
                    try keep(run, i)
                    run = i
                }
                if dropping { mark = i }
                let shift = try refill()
                i -= shift
                run -= shift
                totalShift += shift
                if end - i < n && sourceExhausted { throw endOfFileError("in \(what)", at: end) }
                continue
            }
            if memcmp(base + i, terminator.utf8Start, n) == 0 {
                if keepingText { try keep(run, i) }
                return (i + n, totalShift)
            }
            if first == UInt8(ascii: "-") && base[i + 1] == UInt8(ascii: "-") {
                throw error(.syntax, "'--' inside a comment", at: i)
            }
            i += 1
        }
    }

    mutating func skipDeclaration(at t: Int, keepingCDATA: Bool) throws -> Int {
        if hasPrefix("<!--", at: t) {
            return try skip(past: "-->", from: t + 4, what: "a comment", dropping: !keepingCDATA).next
        }
        if hasPrefix("<![CDATA[", at: t) {
            guard !openStarts.isEmpty else { throw error(.syntax, "CDATA outside the root element", at: t) }
            return try skip(
                past: "]]>", from: t + 9, what: "a CDATA section", dropping: !keepingCDATA, keepingText: keepingCDATA
            ).next
        }
        if hasPrefix("<!DOCTYPE", at: t) {
            guard !rootSeen else { throw error(.syntax, "a DOCTYPE after the root element started", at: t) }
            return try skipDoctype(at: t)
        }
        throw error(.syntax, "unknown markup declaration; expected <!--, <![CDATA[ or <!DOCTYPE", at: t)
    }

    /// Skips `<!DOCTYPE …>`, refusing any entity declaration in an internal subset.
    mutating func skipDoctype(at start: Int) throws -> Int {
        var t = start
        var i = t + 9
        var quote: UInt8 = 0
        var brackets = 0
        while true {
            if i == end {
                let shift = try refill()
                i -= shift
                t -= shift
                if i == end { throw endOfFileError("in the DOCTYPE", at: i) }
                continue
            }
            let b = base[i]
            if quote != 0 {
                if b == quote { quote = 0 }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "[") {
                brackets += 1
            } else if b == UInt8(ascii: "]") {
                brackets -= 1
            } else if b == UInt8(ascii: ">") && brackets <= 0 {
                break
            }
            i += 1
        }
        for k in t..<i where base[k] == UInt8(ascii: "<") && hasPrefix("<!ENTITY", at: k) {
            throw error(
                .entityDeclaration, "entity declarations are not allowed (<!ENTITY in the DOCTYPE)", at: k)
        }
        return i + 1
    }

    mutating func skipProcessingInstruction(at start: Int) throws -> Int {
        let (after, shift) = try skip(past: "?>", from: start + 2, what: "a processing instruction", dropping: false)
        let start = start - shift
        if hasPrefix("<?xml", at: start) { try checkDeclaration(from: start, to: after) }
        return after
    }

    /// In `<?xml … encoding="…"?>`, accepts only UTF-8 (or its subset US-ASCII).
    func checkDeclaration(from start: Int, to after: Int) throws {
        guard after - start > 6, isWhitespace(base[start + 5]) else { return }  // `<?xml-stylesheet`
        var k = start + 5
        while k + 8 < after {
            if memcmp(base + k, "encoding", 8) == 0 {
                var j = k + 8
                while j < after, isWhitespace(base[j]) || base[j] == UInt8(ascii: "=") { j += 1 }
                guard j < after, base[j] == UInt8(ascii: "\"") || base[j] == UInt8(ascii: "'") else { return }
                let q = base[j]
                let valueStart = j + 1
                var valueEnd = valueStart
                while valueEnd < after, base[valueEnd] != q { valueEnd += 1 }
                let value = quoted(valueStart, valueEnd).lowercased()
                guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(value) else {
                    throw error(
                        .unsupportedEncoding, "the encoding \(quoted(valueStart, valueEnd)) is not supported; convert the file to UTF-8",
                        at: valueStart)
                }
                return
            }
            k += 1
        }
    }

    // MARK: References

    /// Reads `&…;` at `i` in streamed text. Returns the scalar and the index after `;`.
    mutating func readReference(at i: Int) throws -> (scalar: UInt32, next: Int) {
        let i = try ensure(16, at: i)
        return try decodeReference(at: i, limit: end)
    }

    /// Decodes `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#…;` or `&#x…;` at `i`.
    func decodeReference(at i: Int, limit: Int) throws -> (scalar: UInt32, next: Int) {
        var semicolon = i + 1
        while semicolon < limit, semicolon - i <= 12, base[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
        guard semicolon < limit, base[semicolon] == UInt8(ascii: ";") else {
            throw error(.undefinedEntity, "'&' must start a reference such as &amp;", at: i)
        }
        let name = UnsafeBufferPointer(start: base + i + 1, count: semicolon - i - 1)
        func named(_ literal: StaticString) -> Bool {
            name.count == literal.utf8CodeUnitCount && memcmp(name.baseAddress!, literal.utf8Start, name.count) == 0
        }
        let next = semicolon + 1
        if named("amp") { return (0x26, next) }
        if named("lt") { return (0x3C, next) }
        if named("gt") { return (0x3E, next) }
        if named("quot") { return (0x22, next) }
        if named("apos") { return (0x27, next) }
        guard name.count >= 2, name[0] == UInt8(ascii: "#") else {
            throw error(.undefinedEntity, "undefined entity &\(quoted(i + 1, semicolon));", at: i)
        }
        var value: UInt32 = 0
        let hex = name[1] == UInt8(ascii: "x")
        let digits = name[(hex ? 2 : 1)...]
        guard !digits.isEmpty else {
            throw error(.badCharacterReference, "&\(quoted(i + 1, semicolon)); is not a character reference", at: i)
        }
        for b in digits {
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: d = UInt32(b - UInt8(ascii: "A") + 10)
            default:
                throw error(.badCharacterReference, "&\(quoted(i + 1, semicolon)); is not a character reference", at: i)
            }
            value = value * (hex ? 16 : 10) + d
        }
        let isXMLChar =
            value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
        guard isXMLChar else {
            throw error(.badCharacterReference, "&\(quoted(i + 1, semicolon)); is not an XML character", at: i)
        }
        return (value, next)
    }
}
