import WaymarkCore
import WaymarkSources

/// The timed track and route points of a GPX 1.0 or 1.1 file, through the GPX reader `waymark
/// replay` uses (``GPXFixSource``): the same fields (position, elevation, time, dilutions,
/// satellites, speed, course, accuracy) and the same errors at the same lines and columns.
///
/// A history needs times: points without a `<time>` are skipped and counted in
/// ``untimedCount``, and a file none of whose points has a time (a route, a track saved without
/// times) is refused (`unsupported`). Waypoints are places, not a path, and are skipped.
public struct GPXHistoryReader: HistoryReader, Sendable {
    private var source: GPXFixSource
    private let name: String
    private var failure: ImportError?

    /// Fixes returned so far.
    public private(set) var fixCount = 0
    /// Track and route points skipped for having no time.
    public var untimedCount: Int { source.untimedPointCount }
    /// Waypoints passed over.
    public var skippedWaypoints: Int { source.skippedWaypointCount }

    /// Opens the GPX file at `path`; `name` is the file's name in errors.
    public init(path: String, name: String, bufferSize: Int = GPXReader.defaultBufferSize) throws(ImportError) {
        do {
            source = GPXFixSource(reader: try GPXReader(path: path, bufferSize: bufferSize))
        } catch let error as GPXError {
            throw ImportError(error, file: name)
        } catch {
            throw ImportError(.io, "cannot open: \(error)", file: name)
        }
        self.name = name
    }

    /// Reads a GPX document held in memory.
    public init(bytes: [UInt8], name: String, bufferSize: Int = GPXReader.defaultBufferSize) {
        source = GPXFixSource(reader: GPXReader(bytes: bytes, name: name, bufferSize: bufferSize))
        self.name = name
    }

    public mutating func next() throws(ImportError) -> ImportedItem? {
        if let failure { throw failure }
        do {
            while let fix = try source.next() {
                guard fix.time != nil else { continue }
                fixCount += 1
                return .fix(fix)
            }
        } catch let error as GPXError {
            failure = ImportError(error, file: name)
        } catch {
            failure = ImportError(.syntax, "\(error)", file: name)
        }
        if let failure { throw failure }
        guard fixCount == 0 else { return nil }
        let points = source.pointCount
        let holds =
            points == 0
            ? "no track or route point\(source.skippedWaypointCount > 0 ? " (only \(source.skippedWaypointCount) waypoints, which are places, not a path)" : "")"
            : "\(points) track or route point\(points == 1 ? "" : "s"), none with a <time> (a route, or a track saved without times)"
        failure = ImportError(.unsupported, "no timed point: the file holds \(holds); a history needs times", file: name)
        throw failure!
    }
}
