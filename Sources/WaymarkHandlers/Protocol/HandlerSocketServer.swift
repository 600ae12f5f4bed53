#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization
import WaymarkStore

/// The handler socket: a Unix stream socket in a private 0700 directory, JSON Lines both ways
/// (docs/handlers.md), served by SwiftNIO on the process's shared event loops — no thread per
/// connection, and a write to a stopped handler whose socket buffer is full waits in NIO's
/// outbound buffer instead of blocking anyone (the supervisor keeps at most a delivery window
/// in flight per handler).
public final class HandlerSocketServer: Sendable {
    public let path: String
    private let directory: String
    private let channel: any Channel
    /// Who is handed each new connection (`start`); connections before it are closed.
    private let onConnection: ConnectionTarget

    final class ConnectionTarget: Sendable {
        let handle = Mutex<(@Sendable (HandlerConnection) -> Void)?>(nil)
    }

    /// Binds `base/daemon-PID/handlers.sock` in a directory of this daemon's own (mode 0700),
    /// so two daemons sharing `base` never remove each other's socket; directories left by
    /// daemons that are gone are removed first.
    public static func bind(base: String, logger: Logger) async throws -> HandlerSocketServer {
        do { try PrivateFolder.create(base) } catch { throw HandlerError.cannotLaunch(error.description) }
        removeStale(in: base)
        let directory = base + "/daemon-\(getpid())"
        let path = directory + "/handlers.sock"
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw HandlerError.cannotLaunch("cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        chmod(directory, 0o700)
        // Bound and listening here, then handed to NIO: NIO's own bind refuses paths over 103
        // bytes (macOS's limit), Linux takes 107, and a deep TMPDIR gets there.
        let descriptor = try listeningSocket(at: path)
        let onConnection = ConnectionTarget()
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .childChannelInitializer { child in
                    let connection = HandlerConnection(channel: child)
                    guard let handle = onConnection.handle.withLock({ $0 }) else { return child.close() }
                    handle(connection)
                    return child.eventLoop.makeCompletedFuture { try child.pipeline.syncOperations.addHandler(HandlerLineReader(connection)) }
                }
                .withBoundSocket(descriptor)
                .get()
        } catch {
            close(descriptor)
            throw HandlerError.cannotLaunch("cannot serve \(path): \(error)")
        }
        return HandlerSocketServer(path: path, directory: directory, channel: channel, onConnection: onConnection)
    }

    private init(path: String, directory: String, channel: any Channel, onConnection: ConnectionTarget) {
        self.path = path
        self.directory = directory
        self.channel = channel
        self.onConnection = onConnection
    }

    /// Accepts connections until `stop`, handing each to `handle` before its first line is read.
    public func start(_ handle: @escaping @Sendable (HandlerConnection) -> Void) {
        onConnection.handle.withLock { $0 = handle }
    }

    /// A Unix stream socket bound at `path` and listening, close-on-exec.
    private static func listeningSocket(at path: String) throws -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw HandlerError.cannotLaunch("\(path) is too long for a Unix socket path")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, byte) in bytes.enumerated() { buffer[i] = byte }
        }
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HandlerError.cannotLaunch("socket: \(String(cString: strerror(errno)))") }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw HandlerError.cannotLaunch("cannot listen on \(path): \(message)")
        }
        return fd
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
        onConnection.handle.withLock { $0 = nil }
        channel.close(promise: nil)
        unlink(path)
        rmdir(directory)
    }
}
