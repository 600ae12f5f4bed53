#if canImport(Glibc)
import Glibc
#endif

/// An output file that appears complete or not at all: everything is written to a temporary
/// file in the same folder (`.NAME.waymark-PID-RANDOM.tmp`), which `commit()` renames over the
/// destination; `discard()` (or a failure) removes it, so a failed export never leaves a
/// half-written file, nor replaces a good one.
struct AtomicFile {
    let path: String
    let temporaryPath: String

    /// Checks that the destination's folder exists and is writable and that the destination is
    /// not a folder, and creates the temporary file.
    init(path: String) throws(ExportError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw ExportError(.output, "-o \(path): names a folder, not a file") }
        var info = stat()
        if stat(folder.isEmpty ? "/" : folder, &info) != 0 || (info.st_mode & S_IFMT) != S_IFDIR {
            throw ExportError(.output, "-o \(path): the folder \(folder.isEmpty ? "/" : folder) does not exist")
        }
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw ExportError(.output, "-o \(path): is a folder")
        }
        var candidate = ""
        var descriptor: Int32 = -1
        for _ in 0..<8 {
            candidate = (slash == nil ? "" : folder + "/") + ".\(name).waymark-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
            descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        temporaryPath = candidate
        guard descriptor >= 0 else {
            throw ExportError(.output, "-o \(path): cannot write in \(folder): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
    }

    /// Moves the finished file into place.
    func commit() throws(ExportError) {
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw ExportError(.output, "cannot move the finished file to \(path): \(reason)")
        }
    }

    /// Removes the temporary file.
    func discard() { unlink(temporaryPath) }
}
