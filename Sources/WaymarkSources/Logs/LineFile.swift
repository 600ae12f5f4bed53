#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WaymarkCore

/// A text file read one line at a time with `getline(3)`, in constant memory (one line's
/// worth), for the line-based replay files: NMEA and gpsd logs, beacon replay files. Closed
/// at the end of the file or when released.
final class LineFile {
    let path: String
    private var file: UnsafeMutablePointer<FILE>?
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0
    /// The 1-based number of the line `next` returned last; 0 before the first.
    private(set) var lineNumber = 0

    /// A line longer than this is refused: no log format here has lines anywhere near it, and
    /// reading one whole would let a file without newlines take all memory.
    static let maximumLineLength = 1 << 20

    /// Opens `path`; `what` names the file in the error when it cannot be opened ("the beacon
    /// replay file").
    init(path: String, what: String? = nil) throws(TrackLogError) {
        self.path = path
        guard let file = fopen(path, "r") else {
            throw TrackLogError(
                code: .unreadable, message: "cannot open\(what.map { " " + $0 } ?? ""): \(String(cString: strerror(errno)))",
                location: SourceLocation(file: path, line: 0, column: 1))
        }
        self.file = file
    }

    deinit { close() }

    /// Closes the file now; `next` returns nil from then on.
    func close() {
        if let file { fclose(file) }
        file = nil
        free(buffer)
        buffer = nil
        capacity = 0
    }

    /// The next line without its line end (LF or CR LF), or nil at the end of the file.
    /// The bytes are valid until the next call.
    func next() throws(TrackLogError) -> UnsafeBufferPointer<UInt8>? {
        guard let file else { return nil }
        let length = getline(&buffer, &capacity, file)
        guard length >= 0, let buffer else {
            if ferror(file) != 0 {
                throw TrackLogError(
                    code: .unreadable, message: "reading failed: \(String(cString: strerror(errno)))",
                    location: SourceLocation(file: path, line: lineNumber + 1, column: 1))
            }
            close()
            return nil
        }
        lineNumber += 1
        guard length <= Self.maximumLineLength else {
            throw TrackLogError(
                code: .tooLong, message: "a line of \(length) bytes; lines are at most \(Self.maximumLineLength)",
                location: SourceLocation(file: path, line: lineNumber, column: 1))
        }
        var count = length
        let bytes = UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
        while count > 0, bytes[count - 1] == 0x0A || bytes[count - 1] == 0x0D { count -= 1 }
        return UnsafeBufferPointer(start: bytes, count: count)
    }

    /// Where column `column` of the current line is.
    func location(column: Int) -> SourceLocation {
        SourceLocation(file: path, line: lineNumber, column: column)
    }
}
