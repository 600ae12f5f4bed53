#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Turns the paths given to `waymark import` into the entries to read, each with its format
/// recognised from its content (never its name):
/// - a file: read as it is; a gzip file (magic bytes 1f 8b), inflated, every member;
/// - a zip archive (magic `PK\3\4`: `.zip`, Google Takeout's archives, KMZ): each member, in
///   the central directory's order; folders in it, hidden members (a path part starting with
///   `.`) and macOS's `__MACOSX/` are passed over silently; a `x.json.gz` member is inflated too;
/// - a folder: walked recursively, names in byte order, hidden files and folders (`.name`) passed
///   over silently. Symbolic links inside a folder are not followed (listed as skipped), so a
///   walk never leaves the folder or loops; a link the user names is followed like any path.
///
/// Inside a folder or archive, content of no known format (Takeout's HTML, photos) and zip
/// archives inside archives are skipped and listed; a file the user named that is no known
/// format is an `unknownFormat` error saying what it looks like, after reading only its first
/// `ImportFormat.detectionPrefixLength` bytes (inflated), whatever its size. A damaged archive,
/// an encrypted or unsupported member, or a file that cannot be read is an error.
public enum ImportSources {
    /// The entries of `paths`, in the order given. `format`, when given (`waymark import --format`,
    /// or CSV when `--columns` names columns by number), is every entry's format instead of the
    /// detected one; archives and gzip are still opened.
    public static func entries(for paths: [String], format: ImportFormat? = nil) throws(ImportError) -> ImportListing {
        var listing = ImportListing(forcedFormat: format)
        for path in paths {
            var status = stat()
            guard stat(path, &status) == 0 else {
                throw ImportError(.io, "cannot read: \(String(cString: strerror(errno)))", file: path)
            }
            if (status.st_mode & S_IFMT) == S_IFDIR {
                try walk(folder: path, into: &listing)
            } else {
                try add(file: path, named: true, into: &listing)
            }
        }
        return listing
    }

    private static func walk(folder: String, into listing: inout ImportListing) throws(ImportError) {
        guard let directory = opendir(folder) else {
            throw ImportError(.io, "cannot read the folder: \(String(cString: strerror(errno)))", file: folder)
        }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        closedir(directory)
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        for name in names {
            let path = base + name
            var status = stat()
            guard lstat(path, &status) == 0 else {
                throw ImportError(.io, "cannot read: \(String(cString: strerror(errno)))", file: path)
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: try walk(folder: path, into: &listing)
            case S_IFREG: try add(file: path, named: false, into: &listing)
            case S_IFLNK:
                listing.skipped.append(SkippedEntry(name: path, reason: "a symbolic link: links inside a folder are not followed (name its target to import it)"))
            default:
                listing.skipped.append(SkippedEntry(name: path, reason: "not a regular file"))
            }
        }
    }

    private static func add(file path: String, named: Bool, into listing: inout ImportListing) throws(ImportError) {
        let file = try ArchiveFile(path: path, name: path)
        let prefix = try file.bytes(at: 0, count: ImportFormat.detectionPrefixLength)
        if ZipCentralDirectory.isZip(prefix) {
            for member in try ZipCentralDirectory.members(of: file) where !isPassedOver(member.path) {
                let name = "\(path):\(member.path)"
                if let refusal = member.refusal { throw ImportError(.archive, refusal, file: name) }
                let source = EntrySource.zipMember(archive: path, member: member)
                let candidate = Candidate(name: name, source: source, size: member.uncompressedSize, storedSize: member.compressedSize, named: false)
                try candidate.recognise(prefix: Self.prefix(of: source, name: name, size: member.uncompressedSize), into: &listing)
            }
            return
        }
        if TarArchive.isTar(prefix) {
            try addTar(file, shownAs: path, holder: nil, origin: path, into: &listing)
            return
        }
        var size: Int? = file.size
        if isGzip(prefix) { size = try gzipSize(of: file) }
        try Candidate(name: path, source: .file(path: path), size: size, storedSize: file.size, named: named)
            .recognise(prefix: prefix, into: &listing)
    }

    /// The members of the tar archive `file` (a `.tar`, or a `.tgz` inflated into `holder`), each
    /// recognised from its first bytes like a zip's.
    fileprivate static func addTar(
        _ file: ArchiveFile, shownAs shown: String, holder: LocalFile?, origin: String, into listing: inout ImportListing
    ) throws(ImportError) {
        for member in try TarArchive.members(of: file) where !isPassedOver(member.path) {
            let name = "\(shown):\(member.path)"
            let source = EntrySource.tarMember(path: holder?.path ?? origin, range: member.range, holder: holder, origin: origin)
            let candidate = Candidate(name: name, source: source, size: member.range.count, storedSize: member.range.count, named: false)
            try candidate.recognise(prefix: Self.prefix(of: source, name: name, size: member.range.count), into: &listing)
        }
    }

    /// An entry being recognised from its first bytes.
    private struct Candidate {
        var name: String
        var source: EntrySource
        var size: Int?
        var storedSize: Int
        var named: Bool

        func recognise(prefix: [UInt8], into listing: inout ImportListing) throws(ImportError) {
            var source = source, prefix = prefix, size = size, layers = 0
            while isGzip(prefix) && layers < 2 {
                if case .zipMember = source { size = nil }
                source = .gzip(source)
                prefix = try ImportSources.prefix(of: source, name: name, size: size)
                layers += 1
            }
            if TarArchive.isTar(prefix), layers > 0, case .gzip(.file(let path)) = source {
                // A .tgz: inflated once into a temporary file whose members are then byte ranges.
                let holder = try LocalFile(inflating: ImportInput(name: name, size: nil, producer: source.producer(name: name)), size: nil)
                try ImportSources.addTar(try ArchiveFile(path: holder.path, name: name), shownAs: name, holder: holder, origin: path, into: &listing)
                return
            }
            if let format = listing.forcedFormat ?? ImportFormat.detect(prefix), !isGzip(prefix) {
                listing.entries.append(ImportEntry(name: name, size: size, storedSize: storedSize, format: format, wasNamed: named, source: source))
                return
            }
            var looks = ContentDescription.describe(prefix)
            if layers > 0 { looks = "gzip-compressed \(looks)" }
            if ZipCentralDirectory.isZip(prefix) && !named { looks += ": a zip inside an archive is not opened; extract it first" }
            guard named else {
                listing.skipped.append(SkippedEntry(name: name, reason: looks))
                return
            }
            throw ImportError(
                .unknownFormat,
                "not a format Waymark reads (GPX, KML/KMZ, TCX, FIT, NMEA, gpsd JSON, OwnTracks .rec, CSV with latitude and longitude columns, JSON; or a zip, gzip or folder of them): it looks like \(looks)",
                file: name)
        }
    }

    /// The first bytes of an entry, inflated. Damage after the first byte is left for the reader
    /// to meet, after the items before it: only an entry that yields nothing is an error here.
    private static func prefix(of source: EntrySource, name: String, size: Int?) throws(ImportError) -> [UInt8] {
        if size == 0 { return [] }
        let producer = try source.producer(name: name)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ImportFormat.detectionPrefixLength, alignment: 1)
        defer { buffer.deallocate() }
        var count = 0
        do throws(ImportError) {
            while count < buffer.count {
                let got = try producer(UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
                if got == 0 { break }
                count += got
            }
        } catch where count > 0 {}
        return Array(buffer[0..<count])
    }

    /// gzip's magic bytes and its only compression method, deflate (RFC 1952, 2.3.1).
    private static func isGzip(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 3 && prefix[0] == 0x1F && prefix[1] == 0x8B && prefix[2] == 8
    }

    /// The inflated size the gzip trailer's ISIZE records (RFC 1952, 2.3.1: the size modulo
    /// 2³², of the last member only); nil when it is smaller than the compressed data, as it is
    /// for a file over 4 GiB whose size wrapped, or a multi-member file with a small last member.
    private static func gzipSize(of file: ArchiveFile) throws(ImportError) -> Int? {
        guard file.size >= 4 else { return nil }
        let trailer = try file.bytes(at: file.size - 4, count: 4)
        guard trailer.count == 4 else { return nil }
        let recorded = Int(trailer[0]) | Int(trailer[1]) << 8 | Int(trailer[2]) << 16 | Int(trailer[3]) << 24
        return recorded + 64 >= file.size ? recorded : nil
    }

    /// Members not worth a line in the skipped list: folders, hidden files, macOS's resource forks.
    private static func isPassedOver(_ path: String) -> Bool {
        path.hasSuffix("/") || path.split(separator: "/").contains { $0.hasPrefix(".") || $0 == "__MACOSX" }
    }
}
