import WaymarkCore
import WaymarkRegions

/// What is known of a track before its points are written: a first pass over the input
/// produces it, so every format can put events, statistics and bounds ahead of the points
/// (GPX 1.1 requires waypoints before tracks) while the points themselves stream.
public struct TrackOverview: Sendable {
    /// The track's name, when the input has one (or the file name).
    public var name: String?
    public var statistics: TrackStatistics
    /// The extent of the track's points the short way round (`TrackBoundsAccumulator`: over the
    /// antimeridian its `maxLongitude` runs past 180°); `nil` for an empty track.
    public var bounds: BoundingBox?
    /// Events in time order.
    public var events: [TrackEvent]
    /// Regions to draw or export as polygons.
    public var regions: [Region]
    /// Regions containing the first fix (the initial state, not transitions).
    public var initialRegions: [String]
    /// Whether every point has an altitude (GeoJSON and KML then write 3-D positions).
    public var allPointsHaveAltitude: Bool

    public init(
        name: String? = nil, statistics: TrackStatistics = TrackStatistics(), bounds: BoundingBox? = nil,
        events: [TrackEvent] = [], regions: [Region] = [], initialRegions: [String] = [],
        allPointsHaveAltitude: Bool = false
    ) {
        self.name = name
        self.statistics = statistics
        self.bounds = bounds
        self.events = events
        // Beacon regions have no outline to draw or export.
        self.regions = regions.filter { if case .beacon = $0.shape { false } else { true } }
        self.initialRegions = initialRegions
        self.allPointsHaveAltitude = allPointsHaveAltitude
    }

    /// Whether the track has more than one segment (GeoJSON then writes a MultiLineString).
    public var isMultiSegment: Bool { statistics.segments > 1 }
}
