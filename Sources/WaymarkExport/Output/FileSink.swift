#if canImport(Glibc)
import Glibc
#endif
import WaymarkCore

/// A buffered `TextSink` over a file descriptor: standard output, or a file it creates.
///
/// Writes go out in 64 KiB blocks. A closed pipe (a reader such as `head` that stopped early)
/// surfaces as `FileSinkError.closedPipe`, so commands can stop quietly.
public final class FileSink: TextSink {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    public let path: String

    /// Standard output.
    public static func standardOutput() -> FileSink { FileSink(descriptor: 1, path: "<stdout>", owns: false) }

    /// Creates (or truncates) the file at `path`.
    public convenience init(creating path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw FileSinkError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        self.init(descriptor: fd, path: path, owns: true)
    }

    private init(descriptor: Int32, path: String, owns: Bool) {
        self.descriptor = descriptor
        self.path = path
        self.ownsDescriptor = owns
        buffer.reserveCapacity(1 << 16)
    }

    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    public func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { bytes in
                Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                buffer.removeAll(keepingCapacity: true)
                if code == EPIPE { throw FileSinkError.closedPipe }
                throw FileSinkError.cannotWrite(path: path, reason: String(cString: strerror(code)))
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit {
        try? flush()
        if ownsDescriptor { close(descriptor) }
    }
}

/// Why output could not be written.
public enum FileSinkError: Error, CustomStringConvertible, Equatable {
    case cannotOpen(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case closedPipe

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot create \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .closedPipe: "output closed by its reader"
        }
    }
}
