import WaymarkCore

/// The GPX schema version a document declares.
public enum GPXVersion: String, Sendable, Equatable {
    /// `http://www.topografix.com/GPX/1/0`
    case v1_0 = "1.0"
    /// `http://www.topografix.com/GPX/1/1`
    case v1_1 = "1.1"
}

/// One `trkpt`, `rtept` or `wpt` of a GPX document, with where it sits in the document.
public struct GPXPoint: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A `trkpt`: a recorded position, part of a track segment.
        case trackPoint
        /// A `rtept`: a planned turn point of a route.
        case routePoint
        /// A `wpt`: a standalone point of interest; not part of any path.
        case waypoint
    }

    public var kind: Kind
    /// 0-based index of the `trk` among the document's tracks (track points only).
    public var track: Int?
    /// 0-based index of the `trkseg` within its track (track points only).
    public var segment: Int?
    /// 0-based index of the `rte` among the document's routes (route points only).
    public var route: Int?
    /// The point's `<name>`, entities and CDATA decoded.
    public var name: String?
    /// Position (`lat`, `lon` in degrees), `ele` (metres) as `altitude`, `time`, `hdop`,
    /// `vdop`, `pdop`, `sat`, `fix`, and GPX 1.0's `speed` (m/s) and `course` (degrees);
    /// `horizontalAccuracy` from an accuracy extension or `hdop` (``GPXAccuracy``).
    public var fix: Fix

    public init(
        kind: Kind, track: Int? = nil, segment: Int? = nil, route: Int? = nil, name: String? = nil,
        fix: Fix
    ) {
        self.kind = kind
        self.track = track
        self.segment = segment
        self.route = route
        self.name = name
        self.fix = fix
    }
}
