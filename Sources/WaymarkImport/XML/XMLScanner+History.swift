import WaymarkCore
import WaymarkSources

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// What the KML and TCX readers need of the GPX reader's XML scanner: opening, names, a start
// tag's kept text as numbers and times, and located errors.
extension XMLScanner {
    /// A scanner over the file at `path`, named `name` in errors.
    static func opening(path: String, name: String, bufferSize: Int) throws(ImportError) -> XMLScanner {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ImportError(.io, "cannot open: \(String(cString: strerror(errno)))", file: name)
        }
        return XMLScanner(source: .file(FileDescriptor(rawValue: descriptor)), fileName: name, chunkSize: bufferSize)
    }

    /// Reads the document's start and its root element, which must be named `root` (by local
    /// name); any other is an `unknownFormat` error.
    mutating func openRoot(_ root: StaticString) throws {
        try start()
        _ = try nextMarkup()
        guard isNamed(root) else {
            throw ImportError(
                .unknownFormat, "the root element is <\(currentName)>, not <\(root)>", file: fileName,
                position: tagPosition)
        }
        if selfClosing { _ = try nextMarkup() }
    }

    /// Whether the current start tag's local name (after any prefix) is `literal`.
    func isNamed(_ literal: StaticString) -> Bool {
        let count = nameEnd - localNameStart
        return count == literal.utf8CodeUnitCount && memcmp(base + localNameStart, literal.utf8Start, count) == 0
    }

    /// Reads the current element's text (none for `<x/>`) and calls `body` with it, leading and
    /// trailing whitespace removed, and the scanner (for errors located at the text).
    mutating func withElementText<R>(_ body: (UnsafeBufferPointer<UInt8>, XMLScanner) throws -> R) throws -> R {
        if selfClosing { return try body(UnsafeBufferPointer(start: nil, count: 0), self) }
        try readText()
        return try text.withUnsafeBufferPointer { whole in
            var from = 0
            var to = whole.count
            while from < to, isWhitespace(whole[from]) { from += 1 }
            while to > from, isWhitespace(whole[to - 1]) { to -= 1 }
            return try body(UnsafeBufferPointer(rebasing: whole[from..<to]), self)
        }
    }

    /// An error about the text just read, at its first byte: `<name> "text" reason`.
    func textError(
        _ code: ImportError.Code, _ element: String, _ text: UnsafeBufferPointer<UInt8>, _ reason: String
    ) -> ImportError {
        var shown = String(decoding: text.prefix(60), as: UTF8.self)
        if text.count > 60 { shown += "…" }
        return ImportError(code, "<\(element)> \"\(shown)\" \(reason)", file: fileName, position: textPosition)
    }

    /// Where the text just read starts.
    var textPosition: ImportError.Position {
        let location = location(atOffset: textStartOffset)
        return .line(location.line, column: location.column)
    }

    /// Where the start or end tag just read starts. It counts the buffer's lines up to there:
    /// for errors and rare events, not for every element.
    var tagPosition: ImportError.Position {
        let location = markupLocation
        return .line(location.line, column: location.column)
    }

    /// The number `text`, or an `invalidValue` error naming `element`.
    func number(_ text: UnsafeBufferPointer<UInt8>, _ element: String) throws(ImportError) -> Double {
        guard let value = DecimalParser.parse(text), value.isFinite else {
            throw textError(.invalidValue, element, text, "is not a number")
        }
        return value
    }

    /// Checks that a position is on the Earth.
    func checkPosition(
        latitude: Double, longitude: Double, _ element: String, _ text: UnsafeBufferPointer<UInt8>
    ) throws(ImportError) {
        guard (-90...90).contains(latitude) else {
            throw textError(.invalidValue, element, text, "has a latitude outside -90…90")
        }
        guard (-180...180).contains(longitude) else {
            throw textError(.invalidValue, element, text, "has a longitude outside -180…180")
        }
    }
}
