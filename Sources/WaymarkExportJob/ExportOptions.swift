import WaymarkCore
import WaymarkExport
import WaymarkPipeline
import WaymarkServices

/// The formats `waymark export` writes.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// GPX 1.1: the track in segments, events as waypoints.
    case gpx
    /// GeoJSON (RFC 7946): track, events and regions as features.
    case geojson
    /// KML 2.2: styled track, event placemarks, region polygons.
    case kml
    /// A picture as SVG: route over the regions, markers, scale bar, north arrow, profile.
    case svg
    /// The same picture as PNG, drawn by cairo.
    case png
    /// A transparent PNG of the map alone, with a world file (`.pgw`) and a KML
    /// `GroundOverlay` (`.kml`) beside it, for map apps.
    case overlay
    /// KMZ: one ZIP with `doc.kml` (the KML above, its icons inside) and the overlay image as a
    /// `GroundOverlay`, referenced relatively: Google Earth, Garmin custom maps, Gaia, CalTopo.
    case kmz
    /// MBTiles 1.3: the overlay (regions, route, markers) as transparent 256-pixel PNG tiles in
    /// Web Mercator, zooms `zooms`, for OsmAnd, Locus and QGIS.
    case mbtiles

    /// Whether the format can go to standard output (`-o -`): the text formats.
    public var isText: Bool { ![.png, .overlay, .kmz, .mbtiles].contains(self) }
}

/// Where the track comes from.
public enum ExportSource: Sendable, Equatable {
    /// A GPX 1.0 or 1.1 file.
    case gpx(path: String)
    /// The history of one device in a Waymark database: its fixes, gaps and events with
    /// `from` ≤ time < `to` (docs/devices.md; `local` is the gpsd receiver).
    case history(database: String, from: Timestamp?, to: Timestamp?, device: String = "local")
}

/// What `waymark export` was asked to do.
public struct ExportOptions: Sendable {
    public var source: ExportSource
    public var format: ExportFormat
    /// The file to write; `-` for standard output (text formats only).
    public var outputPath: String
    /// GeoJSON files or folders of regions to monitor, export and draw. Empty: none for a GPX
    /// track; the database's own regions for the history.
    public var regionPaths: [String] = []
    /// The feature property that names a region (see `GeoJSONRegionLoader`).
    public var idProperty: String?
    /// Name features without an identifier `FILE#INDEX` instead of rejecting them.
    public var numberUnnamedFeatures = false
    /// Simplify the track to this tolerance in metres (more than 0.05); `nil` writes every point.
    public var simplify: Double?
    /// Picture width in pixels (svg, png, overlay, kmz).
    public var width = 1200
    /// The device pipeline's rules (`--config`, `--crossing-gap`, `--region-activity`: the
    /// daemon's keys, docs/configuration.md), and the silence rule that splits the track.
    public var settings = PipelineSettings.standard
    /// Where the track is split into segments (`settings.silence`).
    public var silenceRule: SilenceRule {
        get { settings.silence }
        set { settings.silence = newValue }
    }
    /// The speed bound of the validation gate in front of the location services.
    public var activity: ActivityType = .other
    /// An MBTiles file of raster PNG tiles drawn under the map of a picture (svg, png, overlay,
    /// kmz), with its attribution.
    public var basemapPath: String?
    /// The zooms an MBTiles overlay holds (`ExportOptions.zoomLimit` at most).
    public var zooms = 10...16

    /// The deepest zoom an MBTiles overlay may have: about 30 cm a pixel.
    public static let zoomLimit = 19

    public init(source: ExportSource, format: ExportFormat, outputPath: String) {
        self.source = source
        self.format = format
        self.outputPath = outputPath
    }
}

/// What an export did.
public struct ExportReport: Sendable {
    public var overview: TrackOverview
    /// Points written (fewer than `overview.statistics.points` when simplified).
    public var pointsWritten: Int
    /// The files written, the main one first.
    public var files: [String]
}
