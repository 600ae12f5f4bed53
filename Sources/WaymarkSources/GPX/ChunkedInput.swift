#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor, closed when the last reader sharing it is released. Immutable;
/// `pread` at explicit offsets makes sharing it between copies safe.
package final class FileDescriptor: Sendable {
    let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    deinit { close(rawValue) }
}

/// The bytes a reader scans: a heap block it owns, copied when a copied reader refills.
///
/// Unchecked `Sendable`: like an array's buffer, it is written only by a reader that holds
/// the sole reference (checked with `isKnownUniquelyReferenced` before every refill), and
/// shared copies only read it.
final class ChunkStorage: @unchecked Sendable {
    private(set) var pointer: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        pointer = .allocate(capacity: capacity)
    }

    func copy(count: Int) -> ChunkStorage {
        let other = ChunkStorage(capacity: capacity)
        other.pointer.update(from: pointer, count: count)
        return other
    }

    /// Doubles the capacity, keeping the first `count` bytes.
    func grow(keeping count: Int) {
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
        bigger.update(from: pointer, count: count)
        pointer.deallocate()
        pointer = bigger
        capacity *= 2
    }

    deinit { pointer.deallocate() }
}

/// Where the bytes come from. Files are read with `pread(2)` at the reader's own offset, so
/// a copied reader (a value) continues independently of the original.
package enum ByteSource: Sendable {
    case file(FileDescriptor)
    case memory([UInt8])

    /// Reads up to `count` bytes at `offset` into `destination`; 0 at the end. Returns the
    /// `errno` on failure.
    func read(into destination: UnsafeMutablePointer<UInt8>, count: Int, at offset: Int) -> Result<Int, Errno> {
        switch self {
        case .file(let descriptor):
            while true {
                let got = pread(descriptor.rawValue, destination, count, off_t(offset))
                if got >= 0 { return .success(got) }
                if errno == ESPIPE {
                    // A pipe or terminal: no offsets, so copies of a reader share its position.
                    let got = readSequentially(descriptor.rawValue, destination, count)
                    if got >= 0 { return .success(got) }
                }
                if errno != EINTR { return .failure(Errno(errno)) }
            }
        case .memory(let bytes):
            let available = max(0, min(count, bytes.count - offset))
            if available > 0 {
                bytes.withUnsafeBufferPointer { source in
                    destination.update(from: source.baseAddress! + offset, count: available)
                }
            }
            return .success(available)
        }
    }
}

struct Errno: Error, Sendable {
    var rawValue: Int32
    init(_ rawValue: Int32) { self.rawValue = rawValue }

    var message: String { String(cString: strerror(rawValue)) }
}

/// `read(2)`, named apart from ``ByteSource/read(into:count:at:)``.
private func readSequentially(_ fd: Int32, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    read(fd, destination, count)
}
