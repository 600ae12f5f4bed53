import WaymarkCore

/// The fixes of an NMEA 0183 log (a receiver's serial output, `gpspipe -r`, gpsd's regression
/// logs), one per epoch with a valid position, streamed in constant memory.
///
/// Lines that are not sentences (binary protocols interleaved by the receiver, a logger's own
/// text) are skipped and counted; a sentence with a bad checksum, a byte that is not printable
/// ASCII or a malformed field the reader uses is a ``TrackLogError`` at its line and column.
public struct NMEAFixSource: FixSource {
    private let file: LineFile
    private var assembler = NMEAFixAssembler()
    private var sentences = 0
    /// Fixes returned and lines skipped so far.
    public private(set) var tally = LogTally()

    public init(path: String) throws(TrackLogError) { file = try LineFile(path: path) }

    public mutating func next() throws(TrackLogError) -> Fix? {
        while let line = try file.next() {
            let parsed: NMEASentence.Line
            var fix: Fix?
            do {
                parsed = try NMEASentence.parse(line)
                guard case .sentence(let sentence) = parsed else {
                    if parsed == .other { tally.otherLines += 1 }
                    continue
                }
                sentences += 1
                fix = try assembler.take(sentence)
            } catch {
                throw TrackLogError(code: error.code, message: error.message, location: file.location(column: error.column))
            }
            if let fix { return tally.returning(fix) }
        }
        if let fix = assembler.finish() { return tally.returning(fix) }
        if sentences == 0 && tally.fixes == 0 {
            throw TrackLogError(
                code: .noData, message: "no NMEA sentence (a line starting with $) in the file",
                location: SourceLocation(file: file.path, line: max(file.lineNumber, 1), column: 1))
        }
        return nil
    }
}
