#if canImport(Glibc)
import Glibc
#endif

extension ImportEntry {
    /// The file on disk the entry's bytes come from: the file itself, or the archive or gzip
    /// file holding it. An import knows files by their digests (docs/import.md, "Once").
    public var origin: String { source.originPath }

    /// The size of `origin` on disk, 0 when it cannot be read.
    public var originSize: Int {
        var status = stat()
        return stat(origin, &status) == 0 ? Int(status.st_size) : 0
    }
}

extension EntrySource {
    var originPath: String {
        switch self {
        case .file(let path): path
        case .zipMember(let archive, _): archive
        case .gzip(let inner): inner.originPath
        case .tarMember(_, _, _, let origin): origin
        }
    }
}

extension LocalFile: Equatable {
    /// The same temporary file (an entry of a `.tgz` holds the archive's).
    public static func == (left: LocalFile, right: LocalFile) -> Bool { left === right }
}
