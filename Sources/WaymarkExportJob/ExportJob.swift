import Foundation
import Logging
import WaymarkCore
import WaymarkExport
import WaymarkPipeline
import WaymarkRegions
import WaymarkRender
import WaymarkReplay
import WaymarkStore

/// `waymark export`: reads a GPX track or the recorded history twice — first for the overview
/// (segments, statistics, bounds, events from the region engine and location services), then
/// to stream the points into the chosen format — and writes the result through a temporary
/// file that replaces the destination only when complete.
///
/// Memory stays flat in the number of points: neither pass keeps the points (a picture keeps
/// its route simplified to a third of a pixel; `--simplify` keeps one window of 4,096 points).
public enum ExportJob {
    public static func run(_ options: ExportOptions, logger: Logger) throws -> ExportReport {
        let (input, store) = try open(options.source, logger: logger)
        let outputs = try prepareOutputs(options)
        do {
            let overview = try analyse(
                input, store: store, regionPaths: options.regionPaths, idProperty: options.idProperty,
                numberUnnamed: options.numberUnnamedFeatures, options: options, logger: logger)
            guard overview.statistics.points > 0 else {
                throw ExportError(.emptyTrack, "\(describe(options.source)) has no track points: nothing to export")
            }
            let written = try write(overview, from: input, options: options, outputs: outputs)
            for output in outputs { try output.commit() }
            logger.debug(
                "exported", metadata: ["format": "\(options.format.rawValue)", "points": "\(written)", "to": "\(options.outputPath)"])
            return ExportReport(overview: overview, pointsWritten: written, files: outputs.map(\.path))
        } catch {
            for output in outputs { output.discard() }
            throw error
        }
    }

    /// The overview alone (`waymark stats`): statistics and, with regions, events.
    public static func overview(
        of source: ExportSource, regionPaths: [String] = [], idProperty: String? = nil, settings: PipelineSettings = .standard,
        logger: Logger
    ) throws -> TrackOverview {
        let (input, store) = try open(source, logger: logger)
        var options = ExportOptions(source: source, format: .gpx, outputPath: "-")
        options.settings = settings
        return try analyse(
            input, store: store, regionPaths: regionPaths, idProperty: idProperty, numberUnnamed: false, options: options, logger: logger)
    }

    // MARK: - Input

    private static func open(_ source: ExportSource, logger: Logger) throws -> (any TrackInput, WaymarkStore?) {
        switch source {
        case .gpx(let path):
            return (try GPXTrackInput(path: path), nil)
        case .history(let database, let from, let to, let device):
            guard FileManager.default.fileExists(atPath: database) else {
                throw ExportError(.input, "no database at \(database)")
            }
            let store = try WaymarkStore(path: database, logger: logger)
            return (HistoryTrackInput(store: store, from: from, to: to, device: device), store)
        }
    }

    private static func describe(_ source: ExportSource) -> String {
        switch source {
        case .gpx(let path): path
        case .history(let database, let from, let to, let device):
            "the history of device \(device) in \(database)" + (from.map { " from \($0.rfc3339)" } ?? "") + (to.map { " to \($0.rfc3339)" } ?? "")
        }
    }

    /// The first pass. Regions come from `regionPaths` (validated through an in-memory
    /// store), or for the history without paths, from its own database.
    private static func analyse(
        _ input: any TrackInput, store: WaymarkStore?, regionPaths: [String], idProperty: String?, numberUnnamed: Bool,
        options: ExportOptions, logger: Logger
    ) throws -> TrackOverview {
        let regions: [Region]
        if regionPaths.isEmpty, let store {
            regions = try store.regions()
        } else if regionPaths.isEmpty {
            regions = []
        } else {
            regions = try RegionLoading.load(
                paths: regionPaths, idProperty: idProperty, numberUnnamedFeatures: numberUnnamed,
                into: { try WaymarkStore.temporary(logger: logger) }, logger: logger)
        }
        var analyzer = TrackAnalyzer(
            settings: options.settings, regions: regions, runEngine: store == nil || !regionPaths.isEmpty, activity: options.activity)
        try input.read(events: true, point: { analyzer.add($0) }, event: { analyzer.add($0) })
        return analyzer.finish(name: input.name, regions: regions)
    }

    // MARK: - Output

    private static func prepareOutputs(_ options: ExportOptions) throws -> [AtomicFile] {
        if options.outputPath == "-" {
            guard options.format.isText else {
                throw ExportError(.output, "-o -: \(options.format.rawValue) cannot go to standard output; name a file")
            }
            return []
        }
        var files = [try AtomicFile(path: options.outputPath)]
        if options.format == .overlay {
            do {
                for suffix in [".pgw", ".kml"] { files.append(try AtomicFile(path: sidecar(of: options.outputPath, suffix))) }
            } catch {
                for file in files { file.discard() }
                throw error
            }
        }
        return files
    }

    /// `route.png` → `route.pgw`; any other name gets the suffix added.
    static func sidecar(of path: String, _ suffix: String) -> String {
        path.lowercased().hasSuffix(".png") ? String(path.dropLast(4)) + suffix : path + suffix
    }

    /// The second pass into the format; returns the number of points written.
    private static func write(
        _ overview: TrackOverview, from input: any TrackInput, options: ExportOptions, outputs: [AtomicFile]
    ) throws -> Int {
        let sink = try outputs.first.map { try FileSink(creating: $0.temporaryPath) } ?? FileSink.standardOutput()
        switch options.format {
        case .gpx:
            return try stream(overview, from: input, options: options, into: try GPXWriter(sink: sink, creator: "waymark export", overview: overview))
        case .geojson:
            return try stream(overview, from: input, options: options, into: try GeoJSONWriter(sink: sink, overview: overview))
        case .kml:
            return try stream(overview, from: input, options: options, into: try KMLWriter(sink: sink, overview: overview))
        case .svg:
            let layout = try pictureLayout(overview, options: options, kind: .picture)
            let canvas = try SVGCanvas(sink: sink, width: layout.width, height: layout.height)
            let picture = MapPicture(canvas: canvas, layout: layout, overview: overview, basemap: try basemap(for: layout, options: options))
            return try stream(overview, from: input, options: options, into: picture)
        case .png, .overlay:
            let layout = try pictureLayout(overview, options: options, kind: options.format == .png ? .picture : .overlay)
            let canvas = try CairoCanvas(width: Int(layout.width), height: Int(layout.height.rounded()), path: outputs[0].temporaryPath)
            let picture = MapPicture(canvas: canvas, layout: layout, overview: overview, basemap: try basemap(for: layout, options: options))
            let written = try stream(overview, from: input, options: options, into: picture)
            if options.format == .overlay {
                let world = try FileSink(creating: outputs[1].temporaryPath)
                try world.write(Georeference.worldFile(for: layout.map))
                try world.flush()
                let kml = try FileSink(creating: outputs[2].temporaryPath)
                let image = options.outputPath.split(separator: "/").last.map(String.init) ?? options.outputPath
                try kml.write(Georeference.groundOverlay(for: layout.map, imageHref: image, name: overview.name ?? "Track"))
                try kml.flush()
            }
            return written
        case .kmz:
            return try writeKMZ(overview, from: input, options: options, to: outputs[0].temporaryPath)
        case .mbtiles:
            return try writeMBTiles(overview, from: input, options: options, to: outputs[0].temporaryPath)
        }
    }

    static func pictureLayout(_ overview: TrackOverview, options: ExportOptions, kind: PictureLayout.Kind) throws -> PictureLayout {
        guard let bounds = MapPicture<SVGCanvas<StringSink>>.bounds(of: overview) else {
            throw ExportError(.emptyTrack, "the track has no points: nothing to draw")
        }
        return PictureLayout(bounds: bounds, width: options.width, kind: kind)
    }

    /// Reads the input again, splitting it with the same gap rule, into `writer` (simplified
    /// when asked). Stops after as many points as the first pass saw, so fixes the daemon
    /// records meanwhile are left out; fewer points is an error (the history was pruned).
    static func stream<W: TrackWriter>(
        _ overview: TrackOverview, from input: any TrackInput, options: ExportOptions, into writer: W
    ) throws -> Int {
        let expected = overview.statistics.points
        var segmenter = TrackSegmenter(rule: options.silenceRule)
        var count = 0
        var written = 0
        func feed(_ body: (Fix, Bool) throws -> Void) throws {
            do {
                try input.read(events: false, point: { point in
                    guard count < expected else { throw EnoughPoints() }
                    count += 1
                    try body(point.fix, segmenter.startsSegment(point))
                }, event: { _ in })
            } catch is EnoughPoints {}
            guard count == expected else {
                throw ExportError(.inputChanged, "the input changed during the export (\(expected) points, then \(count)); run it again")
            }
        }
        if let tolerance = options.simplify {
            var simplifying = SimplifyingWriter(writer, tolerance: tolerance)
            try feed { try simplifying.write($0, startsSegment: $1) }
            try simplifying.finish()
            written = simplifying.keptCount
        } else {
            var writer = writer
            try feed { try writer.write($0, startsSegment: $1) }
            try writer.finish()
            written = count
        }
        return written
    }

    private struct EnoughPoints: Error {}
}
