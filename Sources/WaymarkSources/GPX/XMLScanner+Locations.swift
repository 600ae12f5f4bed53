import WaymarkCore

// Where the scanner is, as file:line:column, and the errors that carry it. Lines of retired
// chunks are counted when they are retired; the exact line and column are computed only when
// an error needs them.
extension XMLScanner {
    /// The line and column of buffer index `index` (which must not have been retired).
    package func location(at index: Int) -> SourceLocation {
        var newlines = 0
        var last = -1
        for k in 0..<min(index, end) where base[k] == 0x0A {
            newlines += 1
            last = k
        }
        if newlines > 0 {
            return SourceLocation(
                file: fileName, line: retiredLines + newlines + 1, column: scalars(last + 1, index) + 1)
        }
        return SourceLocation(file: fileName, line: retiredLines + 1, column: columnCarry + scalars(0, index) + 1)
    }

    /// Where the start or end tag just read begins (its `<`).
    package var markupLocation: SourceLocation { location(at: mark) }

    package func location(atOffset offset: Int) -> SourceLocation {
        location(at: max(0, offset - retiredBytes))
    }

    package func error(_ code: GPXError.Code, _ message: String, at index: Int) -> GPXError {
        GPXError(code: code, message: message, location: location(at: index))
    }

    /// Up to 40 scalars of the bytes `from..<to`, for messages.
    package func quoted(_ from: Int, _ to: Int) -> String {
        let count = min(max(0, to - from), 120)
        var text = String(decoding: UnsafeBufferPointer(start: base + from, count: count), as: UTF8.self)
        if text.unicodeScalars.count > 40 || count < to - from {
            text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(40))) + "…"
        }
        return text
    }

    /// The qualified name of the open element `level` (0 is the root), for messages.
    func openName(_ level: Int) -> String {
        let from = openStarts[level]
        let to = level + 1 < openStarts.count ? openStarts[level + 1] : openNames.count
        return String(decoding: openNames[from..<to], as: UTF8.self)
    }

    package var currentName: String { quoted(nameStart, nameEnd) }

    func endOfFileError(_ what: String, at index: Int) -> GPXError {
        let inside = openStarts.isEmpty ? "" : " inside <\(openName(openStarts.count - 1))>"
        return error(.unexpectedEndOfFile, "unexpected end of file \(what)\(inside)", at: index)
    }
}
