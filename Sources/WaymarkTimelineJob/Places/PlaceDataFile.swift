import Foundation
import WaymarkPlaces

/// The place-data file on disk: where it lives and how it is read into a `PlaceIndex`.
/// `scripts/install-dependencies.sh` builds it (docs/places.md).
///
/// Reading blocks (about 15 MB from disk, then the index is built): call it at start-up or off
/// the cooperative pool, never from an async context directly.
public enum PlaceDataFile {
    /// Where the set-up installs the file.
    public static let installedPath = "/usr/local/share/waymark/places.bin"
    /// The environment variable that overrides `installedPath`.
    public static let environmentKey = "WAYMARK_PLACE_DATA"

    /// `WAYMARK_PLACE_DATA` when set and not empty, else `installedPath`.
    public static var defaultPath: String {
        if let path = ProcessInfo.processInfo.environment[environmentKey], !path.isEmpty { return path }
        return installedPath
    }

    /// Reads and indexes the file at `path` (default `defaultPath`). Blocks.
    /// Throws `PlaceDataFileError` naming the file: missing, unreadable or malformed.
    public static func load(path: String? = nil) throws(PlaceDataFileError) -> PlaceIndex {
        let path = path ?? defaultPath
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        let bytes = try read(path)
        do {
            return try PlaceIndex(bytes: bytes)
        } catch {
            throw .malformed(path: path, error)
        }
    }

    /// The file's bytes, read straight into one array (no second copy held while indexing).
    private static func read(_ path: String) throws(PlaceDataFileError) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        guard fseeko(file, 0, SEEK_END) == 0, case let size = Int(ftello(file)), size >= 0, fseeko(file, 0, SEEK_SET) == 0 else {
            throw .unreadable(path: path, reason: "cannot find its size")
        }
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = size == 0 ? 0 : fread(buffer.baseAddress, 1, size, file)
        }
        guard bytes.count == size else {
            throw .unreadable(path: path, reason: "read \(bytes.count) of \(size) bytes")
        }
        return bytes
    }

    /// Like `load`, but nil when no file is installed at `path` ("no place names"); a file
    /// that exists but cannot be read or parsed still throws. Blocks.
    public static func loadIfInstalled(path: String? = nil) throws(PlaceDataFileError) -> PlaceIndex? {
        let path = path ?? defaultPath
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try load(path: path)
    }
}

/// Why the place-data file could not be loaded, naming the file and the remedy.
public enum PlaceDataFileError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(path: String)
    case unreadable(path: String, reason: String)
    case malformed(path: String, PlaceDataError)

    public var description: String {
        switch self {
        case .missing(let path):
            "no place data at \(path): run scripts/install-dependencies.sh to build it, or set \(PlaceDataFile.environmentKey) to a place-data file"
        case .unreadable(let path, let reason):
            "cannot read the place data \(path): \(reason)"
        case .malformed(let path, let error):
            "\(path) is not usable place data: \(error); rebuild it with scripts/install-dependencies.sh"
        }
    }
}
