import WaymarkCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming, non-validating XML tokenizer over a fixed-size chunk buffer, written for GPX.
///
/// It reads the input `chunkSize` bytes at a time and keeps only what the current token needs
/// (a start tag, a kept text), so memory stays constant whatever the file size. It checks
/// well-formedness as it goes: names, quoting, matching end tags, comments, CDATA and
/// processing instructions. It never expands entities: only the five predefined ones and
/// character references are understood, and any `<!ENTITY` declaration is refused.
///
/// Indices are into the chunk buffer and are valid until the next refill, that is, until the
/// next call that reads. Locations are computed only when an error is reported: the scanner
/// counts newlines in each chunk as it retires it, and counts the rest on demand.
package struct XMLScanner: Sendable {
    package enum Markup: Equatable, Sendable {
        /// A start tag; its name and attributes are in `nameStart…`, `attributes`, and
        /// `selfClosing` says whether it was `<…/>` (then no end tag follows).
        case start
        /// The end tag of the innermost open element (already checked to match).
        case end
        /// The end of the input, outside the root element.
        case endOfInput
    }

    package struct Attribute: Sendable {
        package var nameStart: Int
        package var nameEnd: Int
        package var valueStart: Int
        package var valueEnd: Int
        /// Whether the value contains `&` (needs decoding).
        package var hasReference: Bool
    }

    package let fileName: String
    private var source: ByteSource
    private var sourceOffset = 0
    private var storage: ChunkStorage
    /// `storage.pointer`, cached for the hot loops; it follows `storage` through every copy and
    /// growth, so it is as safe to send as `storage`.
    nonisolated(unsafe) package private(set) var base: UnsafeMutablePointer<UInt8>
    private let chunkSize: Int
    /// The most bytes one token (a tag, a kept text) may occupy.
    let maxTokenBytes: Int
    /// The deepest nesting accepted (GPX needs 5; extensions a few more).
    let maxDepth = 1024

    /// Next byte to scan.
    private(set) var pos = 0
    /// End of the valid bytes in the buffer.
    private(set) var end = 0
    /// Start of the bytes a refill must keep.
    var mark = 0
    var sourceExhausted = false

    // Location bookkeeping for retired bytes.
    var retiredBytes = 0
    var retiredLines = 0
    /// Scalars between the last retired newline (or the start) and the buffer's first byte.
    var columnCarry = 0

    // The open elements' qualified names, concatenated.
    var openNames: [UInt8] = []
    var openStarts: [Int] = []
    private var sawMarkup = false
    private(set) var rootSeen = false

    // The last start tag.
    package private(set) var tagStart = 0
    package private(set) var nameStart = 0
    package private(set) var localNameStart = 0
    package private(set) var nameEnd = 0
    package private(set) var selfClosing = false
    package private(set) var attributes: [Attribute] = []

    /// The text `readText()` kept, references and CDATA decoded.
    package private(set) var text: [UInt8] = []
    /// Absolute offset of the kept text's first byte (for error locations).
    package private(set) var textStartOffset = 0

    package init(source: ByteSource, fileName: String, chunkSize: Int, maxTokenBytes: Int = 1 << 20) {
        self.source = source
        self.fileName = fileName
        self.chunkSize = max(1, chunkSize)
        self.maxTokenBytes = max(maxTokenBytes, 64)
        storage = ChunkStorage(capacity: max(16, self.chunkSize))
        base = storage.pointer
        attributes.reserveCapacity(16)
        text.reserveCapacity(256)
        openNames.reserveCapacity(256)
        openStarts.reserveCapacity(16)
    }

    package var depth: Int { openStarts.count }

    // MARK: - Input

    /// Reads the first bytes and skips a UTF-8 byte order mark. Throws on an empty file and on
    /// UTF-16 or UTF-32 input.
    package mutating func start() throws {
        var i = try ensure(4, at: 0)
        if end - i >= 3, base[i] == 0xEF, base[i + 1] == 0xBB, base[i + 2] == 0xBF {
            i += 3
            columnCarry = -1  // the mark is one scalar that no editor counts as a column
            i = try ensure(1, at: i)
        }
        if end - i >= 2, (base[i] == 0xFE && base[i + 1] == 0xFF) || (base[i] == 0xFF && base[i + 1] == 0xFE)
            || (base[i] == 0 && end - i >= 4 && base[i + 1] == 0)
        {
            throw error(.unsupportedEncoding, "UTF-16 and UTF-32 are not supported; convert the file to UTF-8", at: i)
        }
        if i == end { throw error(.emptyFile, "the file is empty", at: i) }
        pos = i
    }

    /// Makes more bytes available after `end`, keeping `mark…end`, which moves to the front of
    /// the buffer. Returns how far it moved (subtract it from indices). At the end of the input
    /// nothing is added, so callers check `end` afterwards.
    mutating func refill() throws -> Int {
        let shift = mark
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy(count: end)
            base = storage.pointer
        }
        if shift > 0 {
            retire(shift)
            let kept = end - shift
            if kept > 0 { memmove(base, base + shift, kept) }
            end = kept
            pos -= shift
            mark = 0
        }
        if sourceExhausted { return shift }
        if end - mark >= maxTokenBytes {
            throw error(.tooLong, "a tag or text longer than \(maxTokenBytes) bytes", at: mark)
        }
        if end == storage.capacity {
            storage.grow(keeping: end)
            base = storage.pointer
        }
        let count = min(storage.capacity - end, chunkSize)
        switch source.read(into: base + end, count: count, at: sourceOffset) {
        case .success(let got):
            if got == 0 { sourceExhausted = true }
            end += got
            sourceOffset += got
        case .failure(let failure):
            throw error(.readFailed, "cannot read: \(failure.message)", at: end)
        }
        return shift
    }

    /// Makes `count` bytes from `i` available (fewer only at the end of the input) and returns
    /// `i` adjusted for any move. Keeps everything from `mark`, which must be ≤ `i`.
    mutating func ensure(_ count: Int, at i: Int) throws -> Int {
        var i = i
        while end - i < count && !sourceExhausted {
            i -= try refill()
        }
        return i
    }

    /// Counts the newlines of bytes about to leave the buffer.
    private mutating func retire(_ count: Int) {
        let bytes = UnsafeBufferPointer(start: base, count: count)
        let newlines = Self.newlines(in: bytes)
        if newlines > 0 {
            var last = count - 1
            while bytes[last] != 0x0A { last -= 1 }
            retiredLines += newlines
            columnCarry = scalars(last + 1, count)
        } else {
            columnCarry += scalars(0, count)
        }
        retiredBytes += count
    }

    /// The line feeds in `bytes`, eight bytes at a time: a byte of `word ^ 0x0A…` is zero
    /// exactly where a line feed was, and `(x & 0x7F) + 0x7F | x` sets the top bit of every
    /// non-zero byte without carrying into its neighbour.
    static func newlines(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let start = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(start)
        var count = 0
        var k = 0
        while k + 8 <= bytes.count {
            let x = raw.loadUnaligned(fromByteOffset: k, as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
            let nonZero = ((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | x
            count &+= (~nonZero & 0x8080_8080_8080_8080).nonzeroBitCount
            k += 8
        }
        while k < bytes.count {
            count &+= bytes[k] == 0x0A ? 1 : 0
            k += 1
        }
        return count
    }

    func scalars(_ from: Int, _ to: Int) -> Int {
        var n = 0
        for byte in UnsafeBufferPointer(start: base + from, count: max(0, to - from)) {
            n &+= byte & 0xC0 != 0x80 ? 1 : 0
        }
        return n
    }

    // MARK: - Markup

    /// Skips text, comments, processing instructions, CDATA and a DOCTYPE up to the next start
    /// or end tag, and reads it.
    package mutating func nextMarkup() throws -> Markup {
        var i = pos
        while true {
            if openStarts.isEmpty {
                // Outside the root element only whitespace and markup may appear.
                while i < end, isWhitespace(base[i]) { i += 1 }
                if i == end {
                    mark = i
                    i -= try refill()
                    if i == end {
                        pos = i
                        if !rootSeen { throw error(.unexpectedEndOfFile, "the document has no root element", at: i) }
                        return .endOfInput
                    }
                    continue
                }
                if base[i] != UInt8(ascii: "<") {
                    if !sawMarkup {
                        throw error(.notXML, "not an XML document: it does not start with '<'", at: i)
                    }
                    throw error(
                        .syntax, rootSeen ? "text after the root element" : "text before the root element", at: i)
                }
            } else {
                while i < end {
                    let b = base[i]
                    if b == UInt8(ascii: "<") || b == UInt8(ascii: "&") { break }
                    i += 1
                }
                if i == end {
                    mark = i
                    i -= try refill()
                    if i == end { throw endOfFileError("in text", at: i) }
                    continue
                }
                if base[i] == UInt8(ascii: "&") {
                    mark = i
                    i = try readReference(at: i).next
                    continue
                }
            }
            // At '<'.
            mark = i
            i = try ensure(9, at: i)
            guard end - i >= 2 else { throw endOfFileError("after '<'", at: end) }
            sawMarkup = true
            switch base[i + 1] {
            case UInt8(ascii: "/"):
                try readEndTag(at: i)
                return .end
            case UInt8(ascii: "!"):
                i = try skipDeclaration(at: i, keepingCDATA: false)
            case UInt8(ascii: "?"):
                i = try skipProcessingInstruction(at: i)
            default:
                try readStartTag(at: i)
                return .start
            }
        }
    }

    /// Skips the content and end tag of the element whose start tag was just read.
    package mutating func skipElement() throws {
        let level = openStarts.count
        while openStarts.count >= level { _ = try nextMarkup() }
    }

    /// Reads the text content of the element whose start tag was just read, through its end
    /// tag, into `text`: references decoded, CDATA kept, comments dropped. A child element is
    /// an error.
    package mutating func readText() throws {
        text.removeAll(keepingCapacity: true)
        var i = pos
        mark = i
        textStartOffset = retiredBytes + i
        while true {
            let run = i
            while i < end {
                let b = base[i]
                if b == UInt8(ascii: "<") || b == UInt8(ascii: "&") { break }
                i += 1
            }
            try keep(run, i)
            if i == end {
                i -= try refill()
                if i == end { throw endOfFileError("in text", at: i) }
                continue
            }
            if base[i] == UInt8(ascii: "&") {
                let (scalar, next) = try readReference(at: i)
                appendUTF8(scalar)
                i = next
                continue
            }
            i = try ensure(9, at: i)
            guard end - i >= 2 else { throw endOfFileError("after '<'", at: end) }
            switch base[i + 1] {
            case UInt8(ascii: "/"):
                try checkText()
                try readEndTag(at: i)
                return
            case UInt8(ascii: "!"):
                i = try skipDeclaration(at: i, keepingCDATA: true)
            case UInt8(ascii: "?"):
                i = try skipProcessingInstruction(at: i)
            default:
                let outer = openName(openStarts.count - 1)
                // The element's name for the message, whole even when it straddles a refill
                // (up to what `quoted` shows); the text before it is no longer needed.
                mark = i
                i = try ensure(122, at: i)
                var j = i + 1
                while j < end, !isWhitespace(base[j]), base[j] != UInt8(ascii: ">"), base[j] != UInt8(ascii: "/") {
                    j += 1
                }
                throw error(
                    .unexpectedElement, "<\(quoted(i + 1, j))> is not allowed inside <\(outer)>, which holds text",
                    at: i)
            }
        }
    }

    mutating func keep(_ from: Int, _ to: Int) throws {
        guard to > from else { return }
        if text.count + (to - from) > maxTokenBytes {
            throw error(.tooLong, "a text longer than \(maxTokenBytes) bytes", at: from)
        }
        text.append(contentsOf: UnsafeBufferPointer(start: base + from, count: to - from))
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            text.append(UInt8(scalar))
        case ..<0x800:
            text.append(UInt8(0xC0 | scalar >> 6))
            text.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            text.append(UInt8(0xE0 | scalar >> 12))
            text.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            text.append(UInt8(0x80 | scalar & 0x3F))
        default:
            text.append(UInt8(0xF0 | scalar >> 18))
            text.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            text.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            text.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Decodes the attribute value `attribute` into `text` (references expanded).
    mutating func decodeValue(_ attribute: Attribute) throws {
        text.removeAll(keepingCapacity: true)
        var i = attribute.valueStart
        while i < attribute.valueEnd {
            if base[i] == UInt8(ascii: "&") {
                let (scalar, next) = try decodeReference(at: i, limit: attribute.valueEnd)
                appendUTF8(scalar)
                i = next
            } else {
                text.append(base[i])
                i += 1
            }
        }
    }

    // MARK: Tags

    private mutating func readStartTag(at start: Int) throws {
        var t = start
        var i = t + 1
        var quote: UInt8 = 0
        while true {
            if i == end {
                let shift = try refill()
                i -= shift
                t -= shift
                if i == end { throw endOfFileError("in the start tag", at: i) }
                continue
            }
            let b = base[i]
            if quote != 0 {
                if b == quote {
                    quote = 0
                } else if b == UInt8(ascii: "<") {
                    throw error(.syntax, "'<' in an attribute value", at: i)
                }
            } else if b == UInt8(ascii: ">") {
                break
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "<") {
                throw error(.syntax, "'<' inside a tag; is a '>' missing?", at: i)
            }
            i += 1
        }
        let close = i
        pos = close + 1
        tagStart = t

        var j = try scanName(from: t + 1, limit: close)
        nameStart = t + 1
        nameEnd = j
        localNameStart = nameStart
        for k in nameStart..<nameEnd where base[k] == UInt8(ascii: ":") { localNameStart = k + 1 }

        attributes.removeAll(keepingCapacity: true)
        selfClosing = false
        while true {
            let hadSpace = j < close && isWhitespace(base[j])
            while j < close, isWhitespace(base[j]) { j += 1 }
            if j == close { break }
            if base[j] == UInt8(ascii: "/") {
                guard j + 1 == close else { throw error(.syntax, "expected '>' after '/'", at: j + 1) }
                selfClosing = true
                break
            }
            guard hadSpace else { throw error(.syntax, "expected whitespace before an attribute", at: j) }
            let attributeStart = j
            j = try scanName(from: j, limit: close)
            let attributeEnd = j
            while j < close, isWhitespace(base[j]) { j += 1 }
            guard j < close, base[j] == UInt8(ascii: "=") else {
                throw error(.syntax, "expected '=' after the attribute name \(quoted(attributeStart, attributeEnd))", at: j)
            }
            j += 1
            while j < close, isWhitespace(base[j]) { j += 1 }
            guard j < close, base[j] == UInt8(ascii: "\"") || base[j] == UInt8(ascii: "'") else {
                throw error(.syntax, "expected a quoted value for the attribute \(quoted(attributeStart, attributeEnd))", at: j)
            }
            let q = base[j]
            j += 1
            let valueStart = j
            var hasReference = false
            while j < close, base[j] != q {
                if base[j] == UInt8(ascii: "&") {
                    hasReference = true
                    j = try decodeReference(at: j, limit: close).next
                } else {
                    j += 1
                }
            }
            guard j < close else { throw error(.syntax, "unterminated attribute value", at: valueStart) }
            attributes.append(
                Attribute(
                    nameStart: attributeStart, nameEnd: attributeEnd, valueStart: valueStart, valueEnd: j,
                    hasReference: hasReference))
            j += 1
        }

        if openStarts.isEmpty {
            if rootSeen { throw error(.syntax, "a second root element <\(currentName)>", at: t) }
            rootSeen = true
        }
        if !selfClosing {
            guard openStarts.count < maxDepth else {
                throw error(.tooLong, "elements nested deeper than \(maxDepth) levels", at: t)
            }
            openStarts.append(openNames.count)
            openNames.append(contentsOf: UnsafeBufferPointer(start: base + nameStart, count: nameEnd - nameStart))
        }
    }

    private mutating func readEndTag(at start: Int) throws {
        var t = start
        var i = t + 2
        while true {
            if i == end {
                let shift = try refill()
                i -= shift
                t -= shift
                if i == end { throw endOfFileError("in an end tag", at: i) }
                continue
            }
            let b = base[i]
            if b == UInt8(ascii: ">") { break }
            if b == UInt8(ascii: "<") { throw error(.syntax, "'<' inside an end tag; is a '>' missing?", at: i) }
            i += 1
        }
        let close = i
        let nameEnd = try scanName(from: t + 2, limit: close)
        var j = nameEnd
        while j < close, isWhitespace(base[j]) { j += 1 }
        guard j == close else { throw error(.syntax, "unexpected character in an end tag", at: j) }
        let name = UnsafeBufferPointer(start: base + t + 2, count: nameEnd - t - 2)
        guard let top = openStarts.last else {
            throw error(.syntax, "end tag </\(quoted(t + 2, nameEnd))> outside the root element", at: t)
        }
        let matches = openNames.withUnsafeBufferPointer { open in
            open.count - top == name.count && memcmp(open.baseAddress! + top, name.baseAddress!, name.count) == 0
        }
        guard matches else {
            throw error(
                .mismatchedEndTag,
                "end tag </\(quoted(t + 2, nameEnd))> does not match <\(openName(openStarts.count - 1))>", at: t)
        }
        openNames.removeSubrange(top...)
        openStarts.removeLast()
        pos = close + 1
    }

    /// Checks a name starting at `from` and returns its end: ASCII name characters, or valid
    /// UTF-8 for anything else.
    private func scanName(from: Int, limit: Int) throws -> Int {
        var j = from
        guard j < limit else { throw error(.syntax, "expected a name", at: j) }
        let first = base[j]
        if first < 0x80 {
            guard nameClass(first) & nameStartBit != 0 else {
                throw error(.syntax, "a name cannot start with '\(Unicode.Scalar(first))'", at: j)
            }
        }
        while j < limit {
            let b = base[j]
            if b < 0x80 {
                if nameClass(b) & nameCharBit != 0 {
                    j += 1
                    continue
                }
                if isWhitespace(b) || b == UInt8(ascii: "=") || b == UInt8(ascii: "/") || b == UInt8(ascii: ">") {
                    break
                }
                throw error(.syntax, "'\(Unicode.Scalar(b))' is not allowed in a name", at: j)
            }
            guard let length = utf8SequenceLength(at: j, limit: limit) else {
                throw error(.invalidUTF8, "invalid UTF-8 in a name", at: j)
            }
            j += length
        }
        return j
    }

    private func utf8SequenceLength(at i: Int, limit: Int) -> Int? {
        Self.utf8Length(UnsafeBufferPointer(start: base, count: limit), at: i)
    }

}

// MARK: - Character classes

private let nameStartBit: UInt8 = 2
private let nameCharBit: UInt8 = 4

/// The name classes of the ASCII bytes, one character each: letters, `_` and `:` ('6') start
/// and continue names; digits, `-` and `.` ('4') continue them; the rest ('0') do neither.
/// The characters' own bits are the class bits.
private let nameClasses: StaticString =
    "00000000000000000000000000000000000000000000044044444444446000000666666666666666666666666660000606666666666666666666666666600000"

/// The name classes of an ASCII byte (`b < 0x80`).
@inline(__always)
private func nameClass(_ b: UInt8) -> UInt8 {
    nameClasses.utf8Start[Int(b)]
}

/// XML whitespace: space, tab, line feed, carriage return.
@inline(__always)
package func isWhitespace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D
}
