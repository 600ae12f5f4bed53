import WaymarkCore

/// A track file of any ``TrackFormat``, read as fixes.
///
/// One optional reader per format rather than an enum with payloads: a payload taken out to be
/// mutated is a copy, and a copied GPX reader copies its buffer on every refill.
public struct TrackFileSource: FixSource {
    public let format: TrackFormat
    private var gpx: GPXFixSource?
    private var nmea: NMEAFixSource?
    private var gpsd: GpsdLogFixSource?

    /// Opens `path` as `format`, or as what its content says when `format` is nil.
    public init(path: String, format: TrackFormat? = nil) throws {
        let format = format ?? TrackFormat.detect(path: path)
        self.format = format
        switch format {
        case .gpx: gpx = try GPXFixSource(path: path)
        case .nmea: nmea = try NMEAFixSource(path: path)
        case .gpsd: gpsd = try GpsdLogFixSource(path: path)
        }
    }

    public mutating func next() throws -> Fix? {
        switch format {
        case .gpx: try gpx!.next()
        case .nmea: try nmea!.next()
        case .gpsd: try gpsd!.next()
        }
    }

    /// Fixes read so far.
    public var pointCount: Int { gpx?.pointCount ?? nmea?.tally.fixes ?? gpsd?.tally.fixes ?? 0 }

    /// Of those, fixes without a time.
    public var untimedPointCount: Int {
        gpx?.untimedPointCount ?? nmea?.tally.untimedFixes ?? gpsd?.tally.untimedFixes ?? 0
    }
}
