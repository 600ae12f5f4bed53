/// A JSON syntax error at a byte offset, with its 1-based line and column.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    public var line: Int
    /// 1-based, counted in Unicode scalars.
    public var column: Int

    public var description: String { "\(line):\(column): \(message)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes, building a `JSONNode` tree.
///
/// Written for region files of several megabytes: one pass, no Foundation, numbers converted
/// with an exact fast path (Clinger's: ≤ 15 significant digits and a power of ten ≤ 22) and
/// the standard library's correctly rounded conversion otherwise.
public enum JSONParser {
    /// Nesting deeper than this is rejected rather than risking the stack.
    public static let maximumDepth = 512

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        let result: Result<JSONNode, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer)
            do throws(JSONSyntaxError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `parse`, handing each element of the root object's array member `key` to `element` as
    /// soon as it is parsed and keeping none of them: in the returned tree that member is an
    /// empty array. A GeoJSON FeatureCollection's features are so decoded one at a time, and a
    /// large file never becomes one tree (BENCHMARKS.md, replay memory).
    public static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, streaming key: String, _ element: @escaping (JSONNode, Int) -> Void
    ) throws(JSONSyntaxError) -> JSONNode {
        var parser = Parser(bytes: bytes)
        parser.stream = (key, element)
        return try parser.parseDocument()
    }
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0
    var depth = 0
    /// The root object's member whose array elements go to `element` instead of the tree.
    var stream: (key: String, element: (JSONNode, Int) -> Void)?

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        // A UTF-8 byte order mark is tolerated (RFC 8259 §8.1 allows ignoring it).
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        skipWhitespace()
        if i == bytes.count { throw error("the input is empty; expected a JSON value", at: i) }
        let node = try parseValue()
        skipWhitespace()
        if i < bytes.count { throw error("unexpected \(describe(at: i)) after the JSON value", at: i) }
        return node
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        let start = i
        guard i < bytes.count else { throw error("unexpected end of input; expected a value", at: i) }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""):
            let s = try parseString()
            return JSONNode(value: .string(s), start: start, end: i)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let d = try parseNumber()
            return JSONNode(value: .number(d), start: start, end: i)
        case UInt8(ascii: "t"):
            try literal("true")
            return JSONNode(value: .bool(true), start: start, end: i)
        case UInt8(ascii: "f"):
            try literal("false")
            return JSONNode(value: .bool(false), start: start, end: i)
        case UInt8(ascii: "n"):
            try literal("null")
            return JSONNode(value: .null, start: start, end: i)
        default:
            throw error("unexpected \(describe(at: i)); expected a value", at: i)
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let start = i
        let n = word.utf8CodeUnitCount
        let w = word.utf8Start
        var k = 0
        while k < n {
            guard i < bytes.count, bytes[i] == w[k] else {
                throw error("invalid literal; expected '\(word)'", at: start)
            }
            i += 1
            k += 1
        }
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels", at: i)
        }
    }

    mutating func parseArray(handingEachTo element: ((JSONNode, Int) -> Void)? = nil) throws(JSONSyntaxError) -> JSONNode {
        let start = i
        try enter()
        i += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "]") {
            i += 1
            depth -= 1
            return JSONNode(value: .array(elements), start: start, end: i)
        }
        var count = 0
        while true {
            skipWhitespace()
            let value = try parseValue()
            if let element {
                element(value, count)
            } else {
                elements.append(value)
            }
            count += 1
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input in an array", at: i, openedAt: start) }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
            } else if bytes[i] == UInt8(ascii: "]") {
                i += 1
                break
            } else {
                throw error("unexpected \(describe(at: i)) in an array; expected ',' or ']'", at: i)
            }
        }
        depth -= 1
        return JSONNode(value: .array(elements), start: start, end: i)
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONNode {
        let start = i
        try enter()
        i += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "}") {
            i += 1
            depth -= 1
            return JSONNode(value: .object(members), start: start, end: i)
        }
        while true {
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input in an object", at: i, openedAt: start) }
            guard bytes[i] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describe(at: i)) in an object; expected a member name in double quotes", at: i)
            }
            let keyStart = i
            let key = try parseString()
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                throw error("expected ':' after the member name \"\(key)\"", at: i)
            }
            i += 1
            skipWhitespace()
            let value: JSONNode
            if depth == 1, let stream, key == stream.key, i < bytes.count, bytes[i] == UInt8(ascii: "[") {
                value = try parseArray(handingEachTo: stream.element)
            } else {
                value = try parseValue()
            }
            members.append(JSONMember(key: key, keyStart: keyStart, value: value))
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input in an object", at: i, openedAt: start) }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
            } else if bytes[i] == UInt8(ascii: "}") {
                i += 1
                break
            } else {
                throw error("unexpected \(describe(at: i)) in an object; expected ',' or '}'", at: i)
            }
        }
        depth -= 1
        return JSONNode(value: .object(members), start: start, end: i)
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = i
        i += 1
        // Fast path: no escapes.
        var j = i
        while j < bytes.count {
            let b = bytes[j]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<j]), as: UTF8.self)
                i = j + 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error("control character U+\(hex(b)) in a string; escape it", at: j) }
            j += 1
        }
        guard j < bytes.count else { throw error("unterminated string", at: start) }
        var out = [UInt8](UnsafeBufferPointer(rebasing: bytes[i..<j]))
        i = j
        while true {
            guard i < bytes.count else { throw error("unterminated string", at: start) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw error("control character U+\(hex(b)) in a string; escape it", at: i) }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                i += 1
                continue
            }
            let escapeStart = i
            i += 1
            guard i < bytes.count else { throw error("unterminated string", at: start) }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(at: escapeStart)
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate \\u\(hex16(scalar)) in a string", at: escapeStart)
                    }
                    i += 2
                    let low = try hex4(at: escapeStart)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw error("unpaired surrogate \\u\(hex16(scalar)) in a string", at: escapeStart)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("unpaired surrogate \\u\(hex16(scalar)) in a string", at: escapeStart)
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default:
                throw error("invalid escape '\\\(String(decoding: [e], as: UTF8.self))' in a string", at: escapeStart)
            }
        }
    }

    mutating func hex4(at escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard i < bytes.count else { throw error("unterminated \\u escape", at: escapeStart) }
            let b = bytes[i]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape; expected four hexadecimal digits", at: escapeStart)
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = i
        var negative = false
        if bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0  // digits accumulated in `mantissa` (leading zeros excluded)
        var dropped = 0  // integer digits that did not fit
        var exponent = 0
        guard i < bytes.count, isDigit(bytes[i]) else { throw error("invalid number; expected a digit", at: start) }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count && isDigit(bytes[i]) { throw error("invalid number; leading zeros are not allowed", at: start) }
        } else {
            while i < bytes.count && isDigit(bytes[i]) {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48)
                    significant += 1
                } else {
                    dropped += 1
                }
                i += 1
            }
        }
        exponent = dropped
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, isDigit(bytes[i]) else {
                throw error("invalid number; expected a digit after '.'", at: start)
            }
            while i < bytes.count && isDigit(bytes[i]) {
                if significant < 19 {
                    if mantissa != 0 || bytes[i] != UInt8(ascii: "0") {
                        mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48)
                        significant += mantissa == 0 ? 0 : 1
                    }
                    exponent -= 1
                } else {
                    dropped += 1
                }
                i += 1
            }
        }
        var exactExponent = true
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            var expNegative = false
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
                expNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < bytes.count, isDigit(bytes[i]) else {
                throw error("invalid number; expected a digit in the exponent", at: start)
            }
            var e = 0
            while i < bytes.count && isDigit(bytes[i]) {
                if e < 100_000 { e = e * 10 + Int(bytes[i] &- 48) } else { exactExponent = false }
                i += 1
            }
            exponent += expNegative ? -e : e
        }
        if significant <= 15 && dropped == 0 && exactExponent && exponent >= -22 && exponent <= 22 {
            var d = Double(mantissa)
            if exponent < 0 { d /= powersOfTen[-exponent] } else { d *= powersOfTen[exponent] }
            return negative ? -d : d
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let d = Double(text) else { throw error("invalid number '\(text)'", at: start) }
        return d
    }

    @inline(__always)
    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    func describe(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let b = bytes[offset]
        if b >= 0x21 && b < 0x7F { return "character '\(String(UnicodeScalar(b)))'" }
        return "byte 0x\(hex(b))"
    }

    func error(_ message: String, at offset: Int, openedAt: Int? = nil) -> JSONSyntaxError {
        let (line, column) = lineAndColumn(of: offset, in: bytes)
        var text = message
        if let openedAt {
            let (l, c) = lineAndColumn(of: openedAt, in: bytes)
            text += " opened at \(l):\(c)"
        }
        return JSONSyntaxError(message: text, offset: offset, line: line, column: column)
    }
}

private let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

private func hex(_ b: UInt8) -> String {
    let s = String(b, radix: 16, uppercase: true)
    return s.count == 1 ? "0" + s : s
}

private func hex16(_ v: UInt32) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
}

/// 1-based line and column (in Unicode scalars) of a byte offset.
func lineAndColumn(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
    var line = 1
    var lineStart = 0
    let end = min(offset, bytes.count)
    var k = 0
    while k < end {
        if bytes[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        k += 1
    }
    var column = 1
    k = lineStart
    while k < end {
        if bytes[k] & 0xC0 != 0x80 { column += 1 }
        k += 1
    }
    return (line, column)
}
