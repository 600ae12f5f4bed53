#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The bytes of one input, read front to back through a buffer that grows only as far as the
/// longest thing a reader asks to see at once (a line, a JSON item, a FIT record): a file, an
/// archive's entry being inflated, or bytes in memory (tests, fuzzing).
///
/// Not `Sendable`: one reader owns it, on one thread.
public final class ImportInput {
    /// Fills the buffer it is given; returns how many bytes it wrote, 0 at the end.
    public typealias Producer = (UnsafeMutableRawBufferPointer) throws(ImportError) -> Int

    /// The name errors give: a path, or `archive.zip:inner/file.json`.
    public let name: String
    /// The input's size in bytes, when known beforehand (for progress).
    public let size: Int?
    private let producer: Producer
    private var onClose: (() -> Void)?
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The offset in the input of `storage[0]`.
    private var base = 0
    /// Unread bytes are `storage[start..<end]`.
    private var start = 0
    private var end = 0
    private var atEnd = false
    /// The number of lines `readLine` has returned.
    public private(set) var lineNumber = 0

    public static let chunkSize = 256 * 1024

    public init(name: String, size: Int?, onClose: (() -> Void)? = nil, producer: @escaping Producer) {
        self.name = name
        self.size = size
        self.producer = producer
        self.onClose = onClose
        capacity = Self.chunkSize
        storage = .allocate(capacity: capacity)
    }

    /// Bytes in memory.
    public convenience init(bytes: [UInt8], name: String) {
        var position = 0
        self.init(name: name, size: bytes.count) { buffer in
            let count = min(buffer.count, bytes.count - position)
            if count > 0 {
                bytes.withUnsafeBytes { source in
                    buffer.baseAddress!.copyMemory(from: source.baseAddress! + position, byteCount: count)
                }
            }
            position += count
            return count
        }
    }

    /// A file, read with `read(2)`; closed when the input is released.
    public convenience init(path: String, name: String? = nil) throws(ImportError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ImportError(.io, "cannot open: \(String(cString: strerror(errno)))", file: name ?? path)
        }
        var status = stat()
        let size = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
        let shown = name ?? path
        self.init(name: shown, size: size, onClose: { close(descriptor) }) { buffer throws(ImportError) in
            while true {
                let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
                if count >= 0 { return count }
                if errno == EINTR { continue }
                throw ImportError(.io, "cannot read: \(String(cString: strerror(errno)))", file: shown)
            }
        }
    }

    deinit {
        storage.deallocate()
        onClose?()
    }

    /// The offset in the input of the next unread byte.
    public var offset: Int { base + start }

    /// The unread bytes buffered now; valid until the next call that reads.
    public var unread: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage + start, count: end - start) }

    /// Marks `count` buffered bytes as read.
    public func advance(by count: Int) {
        precondition(count >= 0 && count <= end - start, "ImportInput.advance beyond the buffered bytes")
        start += count
    }

    /// Buffers at least `count` unread bytes, or all that are left; returns how many are buffered.
    @discardableResult
    public func require(_ count: Int) throws(ImportError) -> Int {
        while end - start < count && !atEnd { try fill(atLeast: count) }
        return end - start
    }

    /// Reads more: buffers at least one byte more than now, unless the input has ended; returns
    /// whether it did. Readers scanning for a delimiter call this when `unread` has none.
    public func more() throws(ImportError) -> Bool {
        let before = end - start
        return try require(before + 1) > before
    }

    /// Whether every byte has been read.
    public func isAtEnd() throws(ImportError) -> Bool { try require(1) == 0 }

    /// The next `count` bytes without reading them (fewer at the end): for recognising a format.
    public func peek(_ count: Int) throws(ImportError) -> [UInt8] {
        let available = try require(count)
        return Array(UnsafeBufferPointer(start: storage + start, count: min(count, available)))
    }

    /// The next byte, read; nil at the end.
    public func nextByte() throws(ImportError) -> UInt8? {
        if start == end, try require(1) == 0 { return nil }
        defer { start += 1 }
        return storage[start]
    }

    /// Exactly `count` bytes, read; nil when the input has ended before the first of them.
    /// Throws `truncated` when it ends after some of them.
    public func read(exactly count: Int) throws(ImportError) -> [UInt8]? {
        let available = try require(count)
        if available == 0 && count > 0 { return nil }
        guard available >= count else {
            throw ImportError(.truncated, "the input ends \(available) bytes into a \(count)-byte block", file: name, position: .byteOffset(offset))
        }
        defer { start += count }
        return Array(UnsafeBufferPointer(start: storage + start, count: count))
    }

    /// The next line without its terminator (`\n` or `\r\n`); nil at the end. A last line
    /// without a terminator is returned as a line. Lines are counted (`lineNumber`).
    public func readLine() throws(ImportError) -> [UInt8]? {
        var scanned = 0
        while true {
            let bytes = unread
            if let newline = bytes[scanned...].firstIndex(of: 0x0A) {
                var lineEnd = newline
                if lineEnd > 0 && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let line = Array(bytes[0..<lineEnd])
                start += newline + 1
                lineNumber += 1
                return line
            }
            scanned = bytes.count
            guard try more() else {
                if scanned == 0 { return nil }
                let line = Array(unread)
                start = end
                lineNumber += 1
                return line
            }
        }
    }

    /// Keeps the unread bytes, moves them to the front, grows the buffer when `count` needs it,
    /// and reads until `count` are buffered, the buffer is full, or the input ends.
    private func fill(atLeast count: Int) throws(ImportError) {
        let unreadCount = end - start
        if start > 0 {
            if unreadCount > 0 { storage.update(from: storage + start, count: unreadCount) }
            base += start
            start = 0
            end = unreadCount
        }
        if count > capacity || end == capacity {
            let grown = max(count, capacity * 2)
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            bigger.update(from: storage, count: end)
            storage.deallocate()
            storage = bigger
            capacity = grown
        }
        while end < count && end < capacity {
            let read = try producer(UnsafeMutableRawBufferPointer(start: storage + end, count: capacity - end))
            if read == 0 {
                atEnd = true
                return
            }
            end += read
        }
    }
}
