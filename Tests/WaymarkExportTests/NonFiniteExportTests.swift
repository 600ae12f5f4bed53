import Foundation
import Testing
import WaymarkCore
import WaymarkExport
import WaymarkRegions

/// Issue 48: a database from before the decoders' bounds may hold infinite or NaN altitudes;
/// the exports leave such a value out instead of writing `nan` or `inf` (not JSON, not a number
/// in GPX or KML).
@Suite struct NonFiniteExportTests {
    static let fixes = [Double.nan, .infinity, 400, -.infinity].enumerated().map { index, altitude in
        fix(north: Double(index) * 100, seconds: Double(index) * 10, altitude: altitude)
    }

    static func overview() -> TrackOverview {
        var statistics = TrackStatisticsAccumulator()
        var box = BoundingBox(fixes[0].coordinate)
        for (index, fix) in fixes.enumerated() {
            statistics.add(fix, startsSegment: index == 0)
            box.formUnion(fix.coordinate)
        }
        return TrackOverview(name: "t", statistics: statistics.result, bounds: box, allPointsHaveAltitude: true)
    }

    static func write(_ writer: inout some TrackWriter) throws {
        for (index, fix) in fixes.enumerated() { try writer.write(fix, startsSegment: index == 0) }
        try writer.finish()
    }

    @Test func geoJSONIsStillJSON() throws {
        let buffer = TextBuffer()
        var writer = try GeoJSONWriter(sink: buffer, overview: Self.overview())
        try Self.write(&writer)
        #expect(try JSONSerialization.jsonObject(with: Data(buffer.text.utf8)) is [String: Any], "\(buffer.text)")
        #expect(buffer.text.contains(",400]"))
    }

    @Test func gpxAndKMLWriteNoNaNOrInfinity() throws {
        let gpx = TextBuffer()
        var gpxWriter = try GPXWriter(sink: gpx, overview: Self.overview())
        try Self.write(&gpxWriter)
        let kml = TextBuffer()
        var kmlWriter = try KMLWriter(sink: kml, overview: Self.overview())
        try Self.write(&kmlWriter)
        for text in [gpx.text, kml.text] {
            #expect(!text.contains("nan") && !text.contains("inf"), "\(text)")
        }
        #expect(gpx.text.contains("<ele>400.00</ele>"))
    }
}
