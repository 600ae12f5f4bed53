import Crypto
import WaymarkImport

#if canImport(Glibc)
import Glibc
#endif

/// SHA-256 of files, as lowercase hex: how an import knows a file it has read before.
enum FileDigest {
    /// The digest of the file at `path`, read front to back in 1 MiB blocks; `progress` is told
    /// the bytes read after each.
    static func sha256(path: String, progress: (Int) -> Void = { _ in }) throws(ImportError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ImportError(.io, "cannot open: \(String(cString: strerror(errno)))", file: path) }
        defer { close(descriptor) }
        var hasher = SHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ImportError(.io, "cannot read: \(String(cString: strerror(errno)))", file: path)
            }
            if count == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            progress(count)
        }
        return hex(hasher.finalize())
    }

    /// The digest of `text`.
    static func sha256(text: String) -> String { hex(SHA256.hash(data: Array(text.utf8))) }

    private static func hex<D: Sequence<UInt8>>(_ digest: D) -> String {
        digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
