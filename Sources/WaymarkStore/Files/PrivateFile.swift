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
    ///
    /// An existing file is never opened here, only `stat`ed and `chmod`ed by path: closing any
    /// descriptor of a file drops every POSIX lock this process holds on it, including those of
    /// SQLite connections already open on the database (SQLite's "POSIX advisory locking" note),
    /// which can corrupt it. A new file is created with `O_EXCL`, so no connection can have it open.
    @discardableResult
    public static func prepare(_ path: String) -> Bool {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return false }
        let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if created >= 0 {
            close(created)
            return true
        }
        guard errno == EEXIST else { return false }
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            guard lstat(file, &info) == 0 else { continue }
            guard info.st_uid == geteuid(), info.st_mode & S_IFMT == S_IFREG else {
                if file == path { return false }
                continue
            }
            if info.st_mode & 0o077 != 0 { chmod(file, 0o600) }
        }
        return true
    }
}
