#if canImport(Glibc)
import Glibc
#endif

/// The process's own resource figures, for benchmarks.
enum ResourceUsage {
    /// Peak resident set size in bytes (`getrusage`'s `ru_maxrss`, which Linux gives in KiB).
    static var peakResidentBytes: Int {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }
}

/// A file's size in bytes.
enum FileSize {
    static func of(_ path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CommandError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        return Int(info.st_size)
    }
}
