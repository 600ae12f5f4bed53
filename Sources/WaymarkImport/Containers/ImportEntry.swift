/// One input of an import: a file, a member of a zip archive, or a gzip file's content, with its
/// format recognised from its first bytes. Listed by `ImportSources.entries(for:)`; opened as
/// often as needed, each `open()` reading from the start.
public struct ImportEntry: Sendable, Equatable {
    /// What errors and progress call it: the path, or `archive.zip:inner/path` for a member of
    /// a zip archive.
    public let name: String
    /// The bytes a reader will read (uncompressed): exact for a file and a zip member; for a
    /// gzip file the size its last member's trailer records (exact for a single-member file
    /// under 4 GiB), nil when that cannot be the size or for a gzip inside a zip.
    public let size: Int?
    /// The bytes the entry occupies on disk (compressed), for progress over several entries.
    public let storedSize: Int
    public let format: ImportFormat
    /// Whether the user named this file itself rather than a folder or archive holding it: a
    /// reader's "not my kind of file" is then an error, not a reason to skip it (Takeout's
    /// archives hold other products' JSON).
    public let wasNamed: Bool
    let source: EntrySource

    init(name: String, size: Int?, storedSize: Int, format: ImportFormat, wasNamed: Bool, source: EntrySource) {
        self.name = name
        self.size = size
        self.storedSize = storedSize
        self.format = format
        self.wasNamed = wasNamed
        self.source = source
    }

    /// A streaming input over the entry's bytes, inflated as they are read; `size` as above.
    /// A zip member's CRC-32 and length are checked at its end, a gzip member's by zlib: a
    /// mismatch or damaged compressed data throws `archive` naming the entry and the offset
    /// reached, after the bytes before it were returned.
    public func open() throws(ImportError) -> ImportInput {
        if case .file(let path) = source { return try ImportInput(path: path, name: name) }
        return ImportInput(name: name, size: size, producer: try source.producer(name: name))
    }

    /// A path a reader can open and read by offset: the file's own path, or for a compressed
    /// entry a temporary file its bytes were inflated into (see `LocalFile`).
    public func localFile() throws(ImportError) -> LocalFile {
        if case .file(let path) = source { return LocalFile(path: path) }
        return try LocalFile(inflating: open(), size: size)
    }
}
