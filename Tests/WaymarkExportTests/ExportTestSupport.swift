import Foundation
import WaymarkCore
import WaymarkExport
import WaymarkSources
import WaymarkTestSupport

/// The points of a GPX file with the segment starts the export sees (each `trk`, `trkseg` and
/// `rte` a piece, then the gap rule).
func trackPoints(_ path: String, rule: SilenceRule = .standard) throws -> [(fix: Fix, startsSegment: Bool)] {
    var reader = try GPXReader(path: path)
    var segmenter = TrackSegmenter(rule: rule)
    var points: [(Fix, Bool)] = []
    var piece: String?
    while let point = try reader.nextPoint() {
        guard point.kind != .waypoint else { continue }
        let key = "\(point.kind)/\(point.track ?? -1)/\(point.segment ?? -1)/\(point.route ?? -1)"
        let starts = segmenter.startsSegment(TrackPoint(fix: point.fix, startsPiece: key != piece))
        piece = key
        points.append((point.fix, starts))
    }
    return points
}

/// A fix at `metres` north of 47° N, 8° E, `seconds` after 2026-06-01T08:00:00Z.
func fix(north metres: Double, east: Double = 0, seconds: Double? = nil, altitude: Double? = nil) -> Fix {
    let start = Timestamp(rfc3339: "2026-06-01T08:00:00Z")!
    var coordinate = Geodesic.destination(from: Coordinate(latitude: 47, longitude: 8), azimuth: 0, distance: metres)
    if east != 0 { coordinate = Geodesic.destination(from: coordinate, azimuth: 90, distance: east) }
    return Fix(time: seconds.map { start.adding(seconds: $0) }, coordinate: coordinate, altitude: altitude)
}

/// Collects writer output in memory; a class so the writer and the test share it.
final class TextBuffer: TextSink {
    var text = ""
    func write(_ text: String) { self.text += text }
    func flush() {}
}
