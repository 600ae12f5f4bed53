import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Small POSIX socket helpers for the gpsd harness: IPv4 loopback only.
enum LoopbackSocket {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ operation: String, _ code: Int32 = errno) {
            description = "\(operation): \(String(cString: strerror(code)))"
        }
    }

    static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        return address
    }

    /// A listening socket on 127.0.0.1 (port 0: the kernel picks one), and its port.
    static func listen(port: Int = 0) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket") }
        var yes: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = address(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let failure = Failure("bind 127.0.0.1:\(port)")
            close(descriptor)
            throw failure
        }
        guard Glibc.listen(descriptor, 16) == 0 else {
            let failure = Failure("listen")
            close(descriptor)
            throw failure
        }
        return (descriptor, boundPort(descriptor))
    }

    static func boundPort(_ descriptor: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A port on 127.0.0.1 that was free a moment ago (the kernel's choice, so tests running
    /// in parallel get different ones).
    static func freePort() throws -> Int {
        let (descriptor, port) = try listen()
        close(descriptor)
        return port
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` (connects and closes).
    static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = address(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }

    /// Waits up to `milliseconds` for `descriptor` to become readable (or closed).
    static func waitReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// Writes all of `bytes`; `false` when the peer is gone.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&entry, 1, 50)
                    continue
                }
                return false
            }
            offset += written
        }
        return true
    }

    /// Reads and discards whatever the peer sent; `false` when the peer closed or failed.
    static func drain(_ descriptor: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 { continue }
            if count == 0 { return false }
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
        }
    }
}

/// A TCP port on 127.0.0.1 that was free a moment ago, for a server a test starts.
public func freeLoopbackPort() throws -> Int { try LoopbackSocket.freePort() }

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
public func loopbackAccepts(port: Int) -> Bool { LoopbackSocket.accepts(port: port) }
