import WaymarkCore

/// The fixes of a GPX file's track points and route points, in document order, for replay.
///
/// Waypoints are not a path, so they are skipped (and counted). The counters let a caller
/// report, for example, "291 of 296 points have no time".
public struct GPXFixSource: FixSource, Sendable {
    private var reader: GPXReader
    /// Track and route points returned so far.
    public private(set) var pointCount = 0
    /// Of those, points without a `<time>`.
    public private(set) var untimedPointCount = 0
    /// Waypoints passed over so far.
    public private(set) var skippedWaypointCount = 0

    public init(reader: GPXReader) { self.reader = reader }

    /// Opens the GPX file at `path`; see ``GPXReader/init(path:bufferSize:)``.
    public init(path: String) throws { self.reader = try GPXReader(path: path) }

    /// The GPX version, once the root element has been read.
    public var version: GPXVersion? { reader.version }

    public mutating func next() throws -> Fix? {
        while let point = try reader.nextPoint() {
            if point.kind == .waypoint {
                skippedWaypointCount += 1
                continue
            }
            pointCount += 1
            if point.fix.time == nil { untimedPointCount += 1 }
            return point.fix
        }
        return nil
    }
}
