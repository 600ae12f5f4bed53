#if canImport(Glibc)
import Glibc
#endif

/// The database's files are the user's location history: readable by its owner only (mode 0600,
/// docs/security.md). SQLite makes a new database `0644 & ~umask`, and gives its `-wal` and
/// `-shm` files the database file's mode; so the file is made 0600 before SQLite opens it, and a
/// file of this user's that others can read (made by an earlier version) is narrowed to 0600
/// with its `-wal` and `-shm`. A file of another user's is left as it is: the open then fails
/// or succeeds on its own permissions.
public enum PrivateFile {
    /// Makes `path` 0600 as described; false when the file belonged to someone else or could not
    /// be made (SQLite's open then says why).
    @discardableResult
    public static func prepare(_ path: String) -> Bool {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return false }
        let fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_uid == geteuid(), info.st_mode & S_IFMT == S_IFREG else { return false }
        if info.st_mode & 0o077 != 0 { guard fchmod(fd, 0o600) == 0 else { return false } }
        for companion in [path + "-wal", path + "-shm"] {
            var other = stat()
            if lstat(companion, &other) == 0, other.st_uid == geteuid(), other.st_mode & S_IFMT == S_IFREG, other.st_mode & 0o077 != 0 {
                chmod(companion, 0o600)
            }
        }
        return true
    }
}
