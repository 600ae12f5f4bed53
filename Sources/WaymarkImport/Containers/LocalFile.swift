#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An entry as a file with a path, for readers that read by offset (`pread`), as the GPX
/// scanner Waymark's `replay` shares does: a plain file is its own path; a compressed entry is
/// inflated, streamed, into a temporary file that has no name in any folder (`O_TMPFILE`, or
/// `mkstemp` then `unlink` where the file system lacks it), in `$TMPDIR` or `/tmp`, reached as
/// `/proc/self/fd/N`. Its space is freed when the value is released and the descriptor closed,
/// and by the kernel if the process dies: nothing is left behind. It needs the inflated size in
/// free space.
public final class LocalFile: Sendable {
    /// A path to open for reading.
    public let path: String
    private let descriptor: Int32?

    init(path: String) {
        self.path = path
        descriptor = nil
    }

    init(inflating input: ImportInput, size: Int?) throws(ImportError) {
        let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let descriptor = try Self.anonymousFile(in: folder, name: input.name)
        do throws(ImportError) {
            while try input.require(ImportInput.chunkSize) > 0 {
                let bytes = input.unread
                try Self.write(bytes, to: descriptor, folder: folder, name: input.name, offset: input.offset)
                input.advance(by: bytes.count)
            }
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        path = "/proc/self/fd/\(descriptor)"
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY` in <fcntl.h>), a macro Swift does not import.
    private static let temporaryFile: Int32 = 0o20_000_000 | O_DIRECTORY

    private static func anonymousFile(in folder: String, name: String) throws(ImportError) -> Int32 {
        let descriptor = open(folder, temporaryFile | O_RDWR | O_CLOEXEC, 0o600)
        if descriptor >= 0 { return descriptor }
        var template = Array("\(folder)/waymark-import-XXXXXX".utf8CString)
        let named = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard named >= 0 else {
            throw ImportError(.io, "cannot create a temporary file in \(folder) to inflate the entry into: \(String(cString: strerror(errno))) (set TMPDIR to a writable folder)", file: name)
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(named, F_SETFD, FD_CLOEXEC)
        return named
    }

    private static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32, folder: String, name: String, offset: Int) throws(ImportError) {
        var done = 0
        while done < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                throw ImportError(
                    .io, "cannot write the inflated entry to a temporary file in \(folder): \(String(cString: strerror(errno))) (set TMPDIR to a folder with room)",
                    file: name, position: .byteOffset(offset + done))
            }
            done += count
        }
    }
}
