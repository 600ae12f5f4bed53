/// Splits an input into CSV records (RFC 4180): fields separated by a delimiter, records by a
/// line break (LF or CRLF); a field in double quotes may hold delimiters, line breaks and
/// doubled quotes (`""` for one `"`). A quote inside an unquoted field is taken literally.
///
/// The fields of the current record are ranges of `input.unread`, valid until the next call
/// to `next()`; nothing is copied for a field unless its text is asked for.
struct CSVRecordScanner {
    struct Field {
        /// The field's bytes in `input.unread`, without its enclosing quotes.
        var range: Range<Int>
        /// Whether a quoted field holds doubled quotes, which `text` undoubles.
        var hasEscapedQuotes: Bool
    }

    let input: ImportInput
    var delimiter = UInt8(ascii: ",")
    /// The fields of the current record.
    private(set) var fields: [Field] = []
    /// The line on which the current record starts (a quoted field may span lines).
    private(set) var line = 0
    /// The lines the current record spans and the bytes it takes, let go by the next `next()`.
    private var recordLines = 1
    private var recordLength = 0

    private static let quote = UInt8(ascii: "\"")
    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    init(input: ImportInput) {
        self.input = input
    }

    /// Moves to the next record; false at the end of the input.
    mutating func next() throws(ImportError) -> Bool {
        input.advance(by: recordLength)
        line += recordLines
        recordLength = 0
        fields.removeAll(keepingCapacity: true)
        var bytes = input.unread
        var position = 0
        var fieldStart = 0
        var inQuotes = false
        var closed = false
        var escaped = false
        var newlines = 0
        while true {
            if position == bytes.count {
                guard try input.more() else {
                    if inQuotes {
                        throw ImportError(
                            .truncated, "the input ends inside the quoted field that starts on line \(line) (a \" is missing)",
                            file: input.name, position: .line(line + newlines, column: fields.count + 1))
                    }
                    if position == 0 && fields.isEmpty { return false }
                    finishField(fieldStart, position, closed: closed, escaped: escaped, bytes)
                    recordLength = position
                    recordLines = newlines + 1
                    return true
                }
                bytes = input.unread
                continue
            }
            let byte = bytes[position]
            if inQuotes {
                if byte == Self.quote {
                    if position + 1 == bytes.count, try input.more() { bytes = input.unread }
                    if position + 1 < bytes.count && bytes[position + 1] == Self.quote {
                        escaped = true
                        position += 2
                        continue
                    }
                    inQuotes = false
                    closed = true
                } else if byte == Self.newline {
                    newlines += 1
                }
                position += 1
                continue
            }
            if byte == delimiter {
                finishField(fieldStart, position, closed: closed, escaped: escaped, bytes)
                position += 1
                fieldStart = position
                closed = false
                escaped = false
                continue
            }
            if byte == Self.newline {
                var end = position
                if end > fieldStart && bytes[end - 1] == Self.carriageReturn { end -= 1 }
                finishField(fieldStart, end, closed: closed, escaped: escaped, bytes)
                recordLength = position + 1
                recordLines = newlines + 1
                return true
            }
            if byte == Self.quote && position == fieldStart {
                inQuotes = true
            } else if closed && byte != Self.carriageReturn {
                throw ImportError(
                    .syntax, "a character after the closing quote of a field (RFC 4180 allows only a delimiter or a line break)",
                    file: input.name, position: .line(line + newlines, column: fields.count + 1))
            }
            position += 1
        }
    }

    private mutating func finishField(_ start: Int, _ end: Int, closed: Bool, escaped: Bool, _ bytes: UnsafeBufferPointer<UInt8>) {
        var end = end
        if closed, end > start, bytes[end - 1] == Self.carriageReturn { end -= 1 }
        let range = closed && end - start >= 2 ? (start + 1)..<(end - 1) : start..<end
        fields.append(Field(range: range, hasEscapedQuotes: escaped))
    }

    /// A field's bytes with surrounding spaces removed; empty for a field the record lacks.
    func bytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        guard index < fields.count else { return UnsafeBufferPointer(start: nil, count: 0) }
        var range = fields[index].range
        let unread = input.unread
        while !range.isEmpty && unread[range.lowerBound] == 0x20 { range = (range.lowerBound + 1)..<range.upperBound }
        while !range.isEmpty && unread[range.upperBound - 1] == 0x20 { range = range.lowerBound..<(range.upperBound - 1) }
        return UnsafeBufferPointer(rebasing: unread[range])
    }

    /// A field's text, doubled quotes undoubled.
    func text(_ index: Int) -> String {
        let bytes = bytes(index)
        guard index < fields.count, fields[index].hasEscapedQuotes else { return String(decoding: bytes, as: UTF8.self) }
        var undoubled: [UInt8] = []
        var previousWasQuote = false
        for byte in bytes {
            if byte == Self.quote && previousWasQuote {
                previousWasQuote = false
                continue
            }
            previousWasQuote = byte == Self.quote
            undoubled.append(byte)
        }
        return String(decoding: undoubled, as: UTF8.self)
    }

    /// Whether the record is an empty line.
    var isBlank: Bool { fields.count == 1 && fields[0].range.isEmpty }
}
