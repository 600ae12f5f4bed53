import WaymarkGeoJSON

/// The bytes of one request body, kept so errors can quote a value as it was written
/// (`got 1e400`, not `got inf`) and point at its line and column.
struct OwnTracksBody {
    let bytes: [UInt8]

    /// The value's source text, shortened to 40 characters.
    func text(of node: JSONNode) -> String {
        let end = min(node.end, bytes.count)
        let text = String(decoding: bytes[min(node.start, end)..<end], as: UTF8.self)
        return text.count > 40 ? String(text.prefix(39)) + "…" : text
    }

    /// 1-based line and column (in Unicode scalars) of a byte offset, as `JSONParser` counts.
    func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes[0..<min(max(offset, 0), bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    func error(_ code: OwnTracksError.Code, _ field: String, _ message: String, at offset: Int) -> OwnTracksError {
        let (line, column) = lineAndColumn(of: offset)
        return OwnTracksError(code: code, field: field, message: message, line: line, column: column)
    }
}
