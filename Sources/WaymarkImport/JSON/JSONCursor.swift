/// Why a `JSONCursor` stopped: the buffered bytes end before the value does (the reader reads
/// more and starts the value again), or the input is wrong.
enum JSONStop: Error {
    case needMore
    case failure(ImportError.Code, String, ImportError.Position)
}

/// A pull reader of JSON tokens over the bytes buffered now, with no allocation on its paths
/// for keys, numbers and ASCII strings: the JSON history decoders walk an item with it,
/// matching keys by their bytes. It counts lines as it passes them, so every error says
/// line:column (columns count bytes).
///
/// When the bytes end inside a value it throws `.needMore` unless `complete` (the input has
/// ended), when it throws `truncated`.
struct JSONCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The input offset of `bytes[0]`.
    let base: Int
    /// Whether the input ends where `bytes` ends.
    let complete: Bool
    var i = 0
    /// The 1-based line of byte `i`, and the input offset of that line's first byte.
    var line: Int
    var lineStart: Int
    var depth = 0

    /// No history nests past ~10 levels; the skipper and decoders recurse per level, so the
    /// bound keeps a hostile file well inside any thread's stack.
    static let maximumDepth = 128

    init(bytes: UnsafeBufferPointer<UInt8>, base: Int, complete: Bool, line: Int, lineStart: Int) {
        self.bytes = bytes
        self.base = base
        self.complete = complete
        self.line = line
        self.lineStart = lineStart
    }

    // MARK: Positions and errors

    /// Where byte `i` is (after any whitespace the caller skipped).
    var here: ImportError.Position { .line(line, column: base + i - lineStart + 1) }

    func failure(_ code: ImportError.Code, _ message: String, at position: ImportError.Position? = nil) -> JSONStop {
        .failure(code, message, position ?? here)
    }

    func syntax(_ message: String) -> JSONStop { failure(.syntax, message) }

    /// The bytes ended: read more, or, at the input's end, the file is truncated.
    func ended() -> JSONStop {
        complete
            ? failure(.truncated, "the file ends inside a JSON value (truncated?); the complete items before it were read")
            : .needMore
    }

    func describe(_ byte: UInt8) -> String { Self.describe(byte) }

    /// A byte for a message: `'x'` when printable ASCII, else `byte 0x..`.
    static func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    // MARK: Structure

    @inline(__always)
    mutating func skipWhitespace() {
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                i += 1
            } else if byte == 0x0A {
                i += 1
                line += 1
                lineStart = base + i
            } else {
                return
            }
        }
    }

    /// The next byte that is not whitespace, not read.
    @inline(__always)
    mutating func peek() throws(JSONStop) -> UInt8 {
        skipWhitespace()
        guard i < bytes.count else { throw ended() }
        return bytes[i]
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(JSONStop) {
        let next = try peek()
        guard next == byte else { throw syntax("expected \(what), found \(describe(next))") }
        i += 1
    }

    /// Reads `{`; then `nextKey(in:)` until it returns nil.
    mutating func beginObject() throws(JSONStop) -> JSONContainer {
        try open(UInt8(ascii: "{"), "an object")
        return JSONContainer()
    }

    /// Reads the opening bracket; another kind of value there is `invalidValue`, anything else `syntax`.
    private mutating func open(_ bracket: UInt8, _ what: String) throws(JSONStop) {
        let next = try peek()
        guard next == bracket else {
            guard let kind = Self.kind(startingWith: next) else { throw syntax("expected \(what), found \(describe(next))") }
            throw failure(.invalidValue, "expected \(what), found \(kind)")
        }
        i += 1
        try enter()
    }

    /// The next member's key, its `:` read; nil after the closing `}`.
    mutating func nextKey(in object: inout JSONContainer) throws(JSONStop) -> JSONKey? {
        var next = try peek()
        if next == UInt8(ascii: "}") {
            i += 1
            depth -= 1
            return nil
        }
        if !object.first {
            guard next == UInt8(ascii: ",") else { throw syntax("expected ',' or '}' in an object, found \(describe(next))") }
            i += 1
            next = try peek()
        }
        object.first = false
        guard next == UInt8(ascii: "\"") else { throw syntax("expected a key in quotes, found \(describe(next))") }
        let key = try rawString()
        try expect(UInt8(ascii: ":"), "':' after a key")
        return JSONKey(key)
    }

    /// Reads `[`; then `nextElement(in:)` until it returns false.
    mutating func beginArray() throws(JSONStop) -> JSONContainer {
        try open(UInt8(ascii: "["), "an array")
        return JSONContainer()
    }

    /// Whether another element follows (its `,` read); false after the closing `]`.
    mutating func nextElement(in array: inout JSONContainer) throws(JSONStop) -> Bool {
        let next = try peek()
        if next == UInt8(ascii: "]") {
            i += 1
            depth -= 1
            return false
        }
        if !array.first {
            guard next == UInt8(ascii: ",") else { throw syntax("expected ',' or ']' in an array, found \(describe(next))") }
            i += 1
            guard try peek() != UInt8(ascii: "]") else { throw syntax("expected a value after ','") }
        }
        array.first = false
        return true
    }

    /// The kind of JSON value a byte starts, for messages; nil when it starts none.
    static func kind(startingWith byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "{"): "an object"
        case UInt8(ascii: "["): "an array"
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): "a number"
        default: nil
        }
    }

    private mutating func enter() throws(JSONStop) {
        depth += 1
        if depth > Self.maximumDepth { throw syntax("nesting deeper than \(Self.maximumDepth) levels") }
    }

    // MARK: Values

    /// Reads a `null` when one is next; whether it did. Decoders treat null as absent.
    mutating func skipNull() throws(JSONStop) -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    mutating func literal(_ word: StaticString) throws(JSONStop) {
        let count = word.utf8CodeUnitCount
        for k in 0..<count {
            guard i + k < bytes.count else { throw ended() }
            guard bytes[i + k] == word.utf8Start[k] else { throw syntax("invalid literal; expected '\(word)'") }
        }
        i += count
    }

    /// Reads any value, checking its syntax, keeping nothing.
    mutating func skipValue() throws(JSONStop) {
        switch try peek() {
        case UInt8(ascii: "{"):
            var object = try beginObject()
            while try nextKey(in: &object) != nil { try skipValue() }
        case UInt8(ascii: "["):
            var array = try beginArray()
            while try nextElement(in: &array) { try skipValue() }
        case UInt8(ascii: "\""): _ = try rawString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number()
        case let other: throw syntax("unexpected \(describe(other)); expected a value")
        }
    }

    /// A string's bytes between its quotes, escapes checked but not decoded.
    mutating func rawString() throws(JSONStop) -> JSONString {
        try expect(UInt8(ascii: "\""), "a string")
        let start = i
        var escaped = false
        while true {
            guard i < bytes.count else { throw ended() }
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                guard i + 1 < bytes.count else { throw ended() }
                switch bytes[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard i + 6 <= bytes.count else { throw ended() }
                    for k in 2..<6 where JSONString.hexValue(bytes[i + k]) == nil {
                        i += k
                        throw syntax("invalid \\u escape in a string")
                    }
                    i += 6
                default:
                    i += 1
                    throw syntax("invalid escape \\\(describe(bytes[i])) in a string")
                }
                continue
            }
            if byte < 0x20 { throw syntax("a control character (\(describe(byte))) inside a string") }
            i += 1
        }
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<i])
        i += 1
        return JSONString(raw: raw, escaped: escaped)
    }

    /// A string value as a Swift string.
    mutating func string() throws(JSONStop) -> String { try rawString().decoded }

    /// A number: exact for up to 19 significant digits and powers of ten up to 22 (Clinger's fast
    /// path), through the standard library's correctly rounded conversion otherwise.
    mutating func number() throws(JSONStop) -> Double {
        let start = i
        var negative = false
        if i < bytes.count && bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < bytes.count else { throw ended() }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var inexact = false
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if bytes[i] >= UInt8(ascii: "1") && bytes[i] <= UInt8(ascii: "9") {
            while i < bytes.count, bytes[i] &- 0x30 < 10 {
                if significant < 19 {
                    mantissa = mantissa * 10 + UInt64(bytes[i] &- 0x30)
                    significant += 1
                } else {
                    exponent += 1
                    inexact = true
                }
                i += 1
            }
        } else {
            throw syntax("invalid number: expected a digit, found \(describe(bytes[i]))")
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < bytes.count, bytes[i] &- 0x30 < 10 {
                let digit = UInt64(bytes[i] &- 0x30)
                if significant < 19 {
                    mantissa = mantissa * 10 + digit
                    if mantissa != 0 { significant += 1 }
                    exponent -= 1
                } else if digit != 0 {
                    inexact = true
                }
                i += 1
            }
            if i == bytes.count && !complete { throw JSONStop.needMore }
            guard i > fractionStart else { throw syntax("invalid number: expected a digit after '.'") }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            guard i < bytes.count else { throw ended() }
            var exponentNegative = false
            if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            let digitsStart = i
            var written = 0
            while i < bytes.count, bytes[i] &- 0x30 < 10 {
                if written < 10_000 { written = written * 10 + Int(bytes[i] &- 0x30) }
                i += 1
            }
            if i == bytes.count && !complete { throw JSONStop.needMore }
            guard i > digitsStart else { throw syntax("invalid number: expected a digit in the exponent") }
            exponent += exponentNegative ? -written : written
        }
        // A number the buffer ends in may go on in bytes not read yet.
        if i == bytes.count && !complete { throw JSONStop.needMore }
        if !inexact && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            var scale = 1.0
            for _ in 0..<abs(exponent) { scale *= 10 }
            let magnitude = exponent < 0 ? Double(mantissa) / scale : Double(mantissa) * scale
            return negative ? -magnitude : magnitude
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw failure(.invalidValue, "the number \(text) is out of range")
        }
        return value
    }
}

/// Where a decoder is in an object or an array.
struct JSONContainer {
    var first = true
}

/// A key, compared with the names a decoder knows by its bytes.
struct JSONKey {
    let string: JSONString

    init(_ string: JSONString) { self.string = string }

    static func ~= (pattern: StaticString, key: JSONKey) -> Bool { key.string.equals(pattern) }

    var text: String { string.decoded }
}
