#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open file read by offset (`pread`), so a zip's central directory and any number of its
/// entries can be read through one descriptor without sharing a file position. Closed when
/// released; a producer that reads from it keeps it open.
final class ArchiveFile: Sendable {
    let descriptor: Int32
    /// The name errors give (the path as the user wrote it).
    let name: String
    let size: Int

    /// Opens a regular file; anything else (a folder, a pipe, a device) is an `io` error.
    init(path: String, name: String) throws(ImportError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ImportError(.io, "cannot open: \(String(cString: strerror(errno)))", file: name)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw ImportError(.io, "not a regular file: Waymark imports files, zip archives, gzip files and folders", file: name)
        }
        self.descriptor = descriptor
        self.name = name
        size = Int(status.st_size)
    }

    deinit { close(descriptor) }

    /// Reads up to `buffer.count` bytes at `offset`; fewer only at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(ImportError) -> Int {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw ImportError(.io, "cannot read: \(String(cString: strerror(errno)))", file: name, position: .byteOffset(offset + done))
            }
            done += count
        }
        return done
    }

    /// `count` bytes at `offset` (fewer when the file ends first).
    func bytes(at offset: Int, count: Int) throws(ImportError) -> [UInt8] {
        guard count > 0 else { return [] }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { buffer.deallocate() }
        let got = try read(into: buffer, at: offset)
        return Array(buffer[0..<got])
    }

    /// A producer of the bytes in `range`; one that ends early (the file shrank) is `truncated`.
    func producer(of range: Range<Int>, shownAs shown: String) -> ImportInput.Producer {
        var offset = range.lowerBound
        return { buffer throws(ImportError) in
            let count = min(buffer.count, range.upperBound - offset)
            guard count > 0 else { return 0 }
            let got = try self.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), at: offset)
            guard got > 0 else {
                throw ImportError(.truncated, "the file ends at byte \(offset), inside data that should reach byte \(range.upperBound)", file: shown, position: .byteOffset(offset - range.lowerBound))
            }
            offset += got
            return got
        }
    }
}
