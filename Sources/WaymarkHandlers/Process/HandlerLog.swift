#if canImport(Glibc)
import Glibc
#endif

/// A handler's stdout and stderr file (`LOGDIR/NAME.log`), kept to a size (docs/handlers.md):
/// when it has grown past `maximumBytes` it is copied to `NAME.log.1` (replacing the older copy)
/// and emptied in place — "copy and truncate", because the handler keeps writing to the file it
/// was given (opened with O_APPEND, so its next line goes to the new start). At most about
/// twice the limit per handler is on disk; lines written between the copy and the truncation
/// are lost. Blocking file I/O: the supervisor calls it on its own thread.
public struct HandlerLog: Sendable {
    public static let defaultMaximumBytes = 10 << 20

    public let path: String
    public var maximumBytes: Int

    public init(path: String, maximumBytes: Int = HandlerLog.defaultMaximumBytes) {
        self.path = path
        self.maximumBytes = maximumBytes
    }

    /// Rotates the file if it is over the limit; true when it did. Failures (the file gone, the
    /// disk full) leave it as it is.
    @discardableResult
    public func rotateIfLarge() -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, Int(info.st_size) > maximumBytes else { return false }
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { return false }
        defer { close(source) }
        let copy = open(path + ".1", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard copy >= 0 else { return false }
        defer { close(copy) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count == 0 { break }
            guard count > 0, buffer.withUnsafeBytes({ write(copy, $0.baseAddress, count) }) == count else { return false }
        }
        return truncate(path, 0) == 0
    }
}
