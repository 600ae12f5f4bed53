#if canImport(Glibc)
import Glibc
#endif
import WaymarkCore
import WaymarkStore

/// Puts the API's Unix socket at its path with mode 0600, without a moment in which another
/// user could connect and without changing the process-wide umask.
///
/// `bind(2)` creates the socket file `0777 & ~umask`. Setting the umask would affect every
/// thread of the daemon (a file the store creates meanwhile), and a `chmod` after binding
/// leaves a window. So the socket is bound inside a fresh private directory (0700) beside the
/// target, `chmod`ed to 0600 there, then hard-linked to the target path — `link(2)` fails
/// instead of replacing a socket another daemon published meanwhile — and the private name
/// and directory are removed.
struct UnixSocketPlacement: Sendable {
    /// Where clients connect.
    let path: String
    /// The private directory the server binds in.
    let privateDirectory: String
    /// The path the server binds to.
    var bindPath: String { privateDirectory + "/s" }

    /// Creates missing parent directories (0700), refuses when a daemon answers on `path`,
    /// removes a stale socket file there, and makes the private directory.
    static func prepare(path: String) throws(APIServerError) -> UnixSocketPlacement {
        guard !path.isEmpty else {
            throw APIServerError(.socketPath, "the socket path is empty")
        }
        let parent = folder(of: path)
        do { try PrivateFolder.create(parent) } catch { throw APIServerError(.socketDirectory, error.description) }
        try removeStaleSocket(path)
        let privateDirectory = parent + "/.waymark-api-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        let placement = UnixSocketPlacement(path: path, privateDirectory: privateDirectory)
        for candidate in [path, placement.bindPath] where candidate.utf8.count > UnixSocketHTTPClient.maximumPathLength {
            throw APIServerError(
                .socketPath,
                "\(candidate) is longer than the \(UnixSocketHTTPClient.maximumPathLength) bytes a Unix socket path may have; choose a shorter socket path")
        }
        guard mkdir(privateDirectory, 0o700) == 0 else {
            throw APIServerError(.socketDirectory, "cannot create \(privateDirectory): \(errorText(errno))")
        }
        return placement
    }

    /// Makes the bound socket 0600 — or 0660 owned by `group` (`api.group`) — and links it at
    /// `path`. Returns its inode, so `remove` only ever deletes our own socket.
    func publish(group: UInt32? = nil) throws(APIServerError) -> ino_t {
        defer { discardPrivateName() }
        if let group, chown(bindPath, uid_t.max, group) != 0 {
            throw APIServerError(.socketPublish, "cannot give \(bindPath) to group \(group): \(Self.errorText(errno))")
        }
        let mode: mode_t = group == nil ? 0o600 : 0o660
        guard chmod(bindPath, mode) == 0 else {
            throw APIServerError(.socketPublish, "cannot set mode \(String(mode, radix: 8)) on \(bindPath): \(Self.errorText(errno))")
        }
        guard link(bindPath, path) == 0 else {
            let error = errno
            if error == EEXIST {
                throw APIServerError(.socketInUse, "\(path) appeared while starting; is another daemon starting too?")
            }
            throw APIServerError(.socketPublish, "cannot create \(path): \(Self.errorText(error))")
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw APIServerError(.socketPublish, "cannot stat \(path): \(Self.errorText(errno))")
        }
        return info.st_ino
    }

    /// Removes the private directory (after publishing, or when the server never started).
    func discardPrivateName() {
        unlink(bindPath)
        rmdir(privateDirectory)
    }

    /// Removes the socket at `path` if it is still the one with `inode`.
    func remove(inode: ino_t) {
        var info = stat()
        if stat(path, &info) == 0, info.st_ino == inode { unlink(path) }
    }

    /// A socket file nobody answers on is left by a daemon that was killed: remove it. One that
    /// answers belongs to a running daemon: refuse. Anything else at the path is not ours.
    private static func removeStaleSocket(_ path: String) throws(APIServerError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw APIServerError(.socketPath, "\(path) exists and is not a socket; refusing to replace it")
        }
        do {
            let fd = try UnixSocketHTTPClient(socketPath: path, timeout: .seconds(2)).connect()
            close(fd)
            throw APIServerError(.socketInUse, "another daemon is listening on \(path); stop it or choose another socket path")
        } catch let error as UnixSocketHTTPClientError where error.code == .noDaemon {
            guard unlink(path) == 0 || errno == ENOENT else {
                throw APIServerError(.socketPath, "cannot remove the stale socket \(path): \(errorText(errno))")
            }
        } catch let error as UnixSocketHTTPClientError where error.code == .untrustedPeer {
            throw APIServerError(.socketInUse, "another user's program is listening on \(path): \(error.message)")
        } catch let error as APIServerError {
            throw error
        } catch {
            throw APIServerError(.socketPath, "cannot check \(path): \(error)")
        }
    }

    private static func errorText(_ code: Int32) -> String { UnixSocketHTTPClient.errorText(code) }
}

/// Why the API server cannot start.
public struct APIServerError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Another daemon answers on the socket path.
        public static let socketInUse = Code(rawValue: "api.socket-in-use")
        /// The socket path is unusable (too long, occupied by a non-socket).
        public static let socketPath = Code(rawValue: "api.socket-path")
        /// The socket's directory cannot be created or is not a directory.
        public static let socketDirectory = Code(rawValue: "api.socket-directory")
        /// The bound socket could not be given mode 0600 or linked into place.
        public static let socketPublish = Code(rawValue: "api.socket-publish")
        /// The configuration is inconsistent (TCP without a token).
        public static let configuration = Code(rawValue: "api.configuration")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
