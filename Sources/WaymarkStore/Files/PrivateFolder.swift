#if canImport(Glibc)
import Glibc
#endif
import WaymarkCore

/// The folders Waymark keeps its files in: the database's, the API socket's, the handler
/// sockets'. Each missing one is created with mode 0700 (as the XDG base-directory rules ask), its
/// missing parents too; folders that exist keep their mode.
public enum PrivateFolder {
    /// `mkdir -p` with mode 0700 for every folder it creates. With `mustBeOwnPrivate`, the folder
    /// must also be a real directory (not a symbolic link) owned by this user with no access
    /// for anyone else: for a folder in a shared place such as `/tmp/waymark-UID`, which another
    /// user could have made first to catch the daemon's socket.
    public static func create(_ path: String, mustBeOwnPrivate: Bool = false) throws(PrivateFolderError) {
        guard !path.isEmpty else { throw PrivateFolderError(path: path, reason: "the path is empty") }
        try makeDirectories(path)
        guard mustBeOwnPrivate else { return }
        var info = stat()
        guard lstat(path, &info) == 0 else { throw PrivateFolderError(path: path, reason: errorText(errno)) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw PrivateFolderError(path: path, reason: "it is not a directory (a symbolic link?); refusing to use it")
        }
        guard info.st_uid == geteuid() else {
            throw PrivateFolderError(path: path, reason: "it belongs to user \(info.st_uid), not to this user (\(geteuid())); refusing to use it")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw PrivateFolderError(
                path: path, reason: "its mode is \(String(info.st_mode & 0o777, radix: 8)), so other users can reach it; make it 0700")
        }
    }

    private static func makeDirectories(_ directory: String) throws(PrivateFolderError) {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw PrivateFolderError(path: directory, reason: "it exists and is not a directory") }
            return
        }
        let parent = folder(of: directory)
        if parent != directory && parent != "." { try makeDirectories(parent) }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw PrivateFolderError(path: directory, reason: errorText(errno))
        }
    }

    private static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// A folder Waymark needs that it cannot create or may not use.
public struct PrivateFolderError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot use the folder \(path): \(reason)" }
}
