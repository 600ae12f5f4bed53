/// The streaming half of the JSON reader: hands a `JSONCursor` over the buffered bytes to one
/// step (a key, an array's next item) and, when the bytes end inside it, buffers more and runs
/// the step again from its start. Only the step's bytes are held, so memory follows the largest
/// item, not the file; an item longer than `maximumItemBytes` is refused.
struct JSONItemScanner {
    let input: ImportInput
    private var line = 1
    private var lineStart = 0

    /// Far beyond any item of a real export (a day's GeoJSON line of 100 000 points is ~10 MB).
    static let maximumItemBytes = 64 * 1024 * 1024

    init(input: ImportInput) { self.input = input }

    var offset: Int { input.offset }

    /// Runs `step` until it completes, reading more input as it needs; consumes what it read
    /// unless `consume` is false (a look ahead). `tooLong` says why a step may not need more
    /// than `limit` bytes.
    mutating func attempt<T>(
        limit: Int = maximumItemBytes, consume: Bool = true, tooLong: () -> ImportError,
        _ step: (inout JSONCursor) throws(JSONStop) -> T
    ) throws(ImportError) -> T {
        var complete = false
        while true {
            let bytes = input.unread
            var cursor = JSONCursor(bytes: bytes, base: input.offset, complete: complete, line: line, lineStart: lineStart)
            do throws(JSONStop) {
                let result = try step(&cursor)
                if consume {
                    input.advance(by: cursor.i)
                    line = cursor.line
                    lineStart = cursor.lineStart
                }
                return result
            } catch {
                switch error {
                case .needMore:
                    if bytes.count >= limit { throw tooLong() }
                    let buffered = try input.require(min(max(bytes.count * 2, 64 * 1024), limit + 1))
                    if buffered <= bytes.count { complete = true }
                case .failure(let code, let message, let position):
                    throw ImportError(code, message, file: input.name, position: position)
                }
            }
        }
    }

    /// `attempt` for an item of the file's arrays, refused past `maximumItemBytes`.
    mutating func item<T>(consume: Bool = true, _ step: (inout JSONCursor) throws(JSONStop) -> T) throws(ImportError) -> T {
        let name = input.name
        let position = ImportError.Position.line(line, column: input.offset - lineStart + 1)
        return try attempt(
            consume: consume,
            tooLong: {
                ImportError(
                    .unsupported, "a JSON item longer than \(Self.maximumItemBytes / 1_048_576) MiB; no location history has items this large",
                    file: name, position: position)
            }, step)
    }
}
