#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Logging
import WaymarkStore

/// The handler socket: a Unix stream socket in a private 0700 directory, JSON Lines both ways
/// (docs/handlers.md). One thread accepts; each connection has a reading thread and a serial
/// queue for writes, so a stopped handler whose socket buffer is full never blocks the daemon.
public final class HandlerSocketServer: @unchecked Sendable {
    public let path: String
    private let directory: String
    private let listener: Int32
    private let logger: Logger
    // Set once before `start` and read by the accept thread afterwards.
    private var onConnection: (@Sendable (HandlerConnection) -> Void)?

    /// Binds `base/daemon-PID/handlers.sock` in a directory of this daemon's own (mode 0700),
    /// so two daemons sharing `base` never remove each other's socket; directories left by
    /// daemons that are gone are removed first.
    public init(base: String, logger: Logger) throws {
        self.logger = logger
        do { try PrivateFolder.create(base) } catch { throw HandlerError.cannotLaunch(error.description) }
        Self.removeStale(in: base)
        directory = base + "/daemon-\(getpid())"
        path = directory + "/handlers.sock"
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw HandlerError.cannotLaunch("cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        chmod(directory, 0o700)
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HandlerError.cannotLaunch("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw HandlerError.cannotLaunch("\(path) is too long for a Unix socket path")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, byte) in bytes.enumerated() { buffer[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw HandlerError.cannotLaunch("cannot listen on \(path): \(message)")
        }
        listener = fd
    }

    /// Accepts connections until `stop`, handing each to `handle`.
    public func start(_ handle: @escaping @Sendable (HandlerConnection) -> Void) {
        onConnection = handle
        let thread = Thread { [self] in
            while true {
                // Children never inherit it: they are spawned with every descriptor above 2 closed.
                let client = accept(listener, nil, nil)
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    return  // closed by stop()
                }
                onConnection?(HandlerConnection(fd: client))
            }
        }
        thread.name = "waymark-handler-accept"
        thread.start()
    }

    /// Removes `daemon-PID` directories of processes that no longer exist.
    private static func removeStale(in base: String) {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where entry.hasPrefix("daemon-") {
            guard let pid = pid_t(entry.dropFirst("daemon-".count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(base + "/" + entry + "/handlers.sock")
            rmdir(base + "/" + entry)
        }
    }

    /// Stops accepting and removes the socket and its directory.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
        rmdir(directory)
    }
}

/// One handler's connection: lines in (on a thread of its own), lines out (on a serial queue).
///
/// The descriptor is closed only once the reading thread has finished and every write queued
/// before has run, on the write queue itself; writes queued later are dropped. So no thread ever
/// reads or writes a descriptor number the kernel has meanwhile given to another connection.
public final class HandlerConnection: @unchecked Sendable, Hashable {
    private let fd: Int32
    private let writes = DispatchQueue(label: "waymark.handler.write")
    private let lock = NSLock()
    private var shutDown = false
    /// Touched only on `writes`.
    private var open = true

    init(fd: Int32) { self.fd = fd }

    /// Reads lines until the peer closes or `close` is called; the complete lines of each read
    /// (without their newlines, in order) go to `lines` together, then `ended` runs once.
    /// Lines over 1 MiB end the connection.
    public func readLines(_ lines: @escaping @Sendable ([String]) -> Void, ended: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            reading: while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending.append(contentsOf: buffer[0..<count])
                if let end = pending.lastIndex(of: 10) {
                    lines(pending[..<end].split(separator: 10, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) })
                    pending.removeSubrange(...end)
                }
                if pending.count > 1 << 20 { break reading }
            }
            close()
            writes.async { [self] in
                open = false
                _ = Glibc.close(fd)
            }
            ended()
        }
        thread.name = "waymark-handler-read"
        thread.start()
    }

    /// Queues `line` (a newline is added). Never blocks the caller.
    public func send(_ line: String) { send(lines: [line]) }

    /// Queues `lines` to go out together (a newline after each). Never blocks the caller.
    public func send(lines: [String]) {
        guard !lines.isEmpty else { return }
        var joined: [UInt8] = []
        joined.reserveCapacity(lines.reduce(0) { $0 + $1.utf8.count + 1 })
        for line in lines {
            joined.append(contentsOf: line.utf8)
            joined.append(10)
        }
        let bytes = joined
        writes.async { [self] in
            var offset = 0
            while open && offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// Ends the connection (idempotent): the peer sees end of file, a blocked write fails,
    /// and the reading thread finishes, which closes the descriptor.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        if shutDown { return }
        shutDown = true
        shutdown(fd, Int32(SHUT_RDWR))
    }

    public static func == (a: HandlerConnection, b: HandlerConnection) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
