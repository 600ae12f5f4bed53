/// Where an entry's bytes come from, as layers: a file, a member of a zip archive, or the
/// gzip-compressed bytes of either (a `.gz` file, a `x.json.gz` inside a zip).
indirect enum EntrySource: Sendable, Equatable {
    case file(path: String)
    case zipMember(archive: String, member: ZipMember)
    case gzip(EntrySource)
    /// A member of a tar archive at `path`: a byte range of it. For a `.tgz`, `path` is the
    /// inflated archive's temporary file (`holder` keeps it) and `origin` the `.tgz` itself.
    case tarMember(path: String, range: Range<Int>, holder: LocalFile?, origin: String)

    /// A producer of the entry's bytes, inflated and checked; errors name `name`. Each call
    /// opens the file again, so entries are read independently.
    func producer(name: String) throws(ImportError) -> ImportInput.Producer {
        switch self {
        case .file(let path):
            let file = try ArchiveFile(path: path, name: name)
            return file.producer(of: 0..<file.size, shownAs: name)
        case .zipMember(let archive, let member):
            if let refusal = member.refusal { throw ImportError(.archive, refusal, file: name) }
            let file = try ArchiveFile(path: archive, name: archive)
            let start = try ZipCentralDirectory.dataOffset(of: member, in: file)
            let stored = file.producer(of: start..<start + member.compressedSize, shownAs: name)
            let bytes = member.method == 8 ? try ZlibInflater(.raw, name: name, source: stored).producer : stored
            return ZipEntryCheck.producer(member, name: name, source: bytes)
        case .tarMember(let path, let range, _, _):
            return try ArchiveFile(path: path, name: name).producer(of: range, shownAs: name)
        case .gzip(let compressed):
            return try ZlibInflater(.gzip, name: name, source: compressed.producer(name: name)).producer
        }
    }

    /// Whether the bytes are compressed (and so have no path a reader could `pread`).
    var isCompressed: Bool {
        if case .file = self { false } else { true }
    }
}
