import WaymarkCore
import WaymarkExport
import WaymarkSources
import WaymarkStore

/// A GPX file's track points (each `trk`/`trkseg` a piece) and then its route points (each
/// `rte` a piece), in document order; waypoints are places, not a path, and are skipped.
struct GPXTrackInput: TrackInput {
    let path: String

    /// The file name without folder or `.gpx`.
    var name: String? {
        var base = path.split(separator: "/").last.map(String.init) ?? path
        if base.lowercased().hasSuffix(".gpx") { base.removeLast(4) }
        return base
    }

    /// Opens the file once, so a missing or unreadable file is reported before any work.
    init(path: String) throws {
        self.path = path
        _ = try GPXReader(path: path)
    }

    func read(events: Bool, point: (TrackPoint) throws -> Void, event: (StoredEvent) throws -> Void) throws {
        var reader = try GPXReader(path: path)
        var piece: (kind: GPXPoint.Kind, a: Int?, b: Int?)?
        while let next = try reader.nextPoint() {
            let key: (GPXPoint.Kind, Int?, Int?)
            switch next.kind {
            case .waypoint: continue
            case .trackPoint: key = (.trackPoint, next.track, next.segment)
            case .routePoint: key = (.routePoint, next.route, nil)
            }
            let starts = piece.map { $0.kind != key.0 || $0.a != key.1 || $0.b != key.2 } ?? true
            piece = key
            try point(TrackPoint(fix: next.fix, startsPiece: starts))
        }
    }
}
