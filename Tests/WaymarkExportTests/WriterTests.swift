import Foundation
import Testing
import WaymarkCore
import WaymarkExport
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkSources
import WaymarkTestSupport

/// The writers on plain values: what they write reads back (with the project's own GPX and
/// JSON readers; the CLI tests use GDAL, gpsbabel and gpxpy).
@Suite struct WriterTests {
    static let events = [
        TrackEvent(kind: .enter, time: fix(north: 100, seconds: 10).time, coordinate: fix(north: 100).coordinate, region: "park", name: "Enter park", description: "Entered <park> & \"more\"."),
        TrackEvent(kind: .arrival, time: fix(north: 200, seconds: 20).time, coordinate: fix(north: 200).coordinate, name: "Visit 1 arrival", description: "Arrived."),
    ]
    static let regions = [
        Region(identifier: "park", shape: .circle(center: fix(north: 150).coordinate, radius: 80)),
        // Exterior clockwise and hole counterclockwise on purpose: the writer must turn them.
        Region(identifier: "lake", shape: .polygons([Polygon(
            exterior: [Coordinate(latitude: 47, longitude: 8), Coordinate(latitude: 47.01, longitude: 8), Coordinate(latitude: 47.01, longitude: 8.01), Coordinate(latitude: 47, longitude: 8.01), Coordinate(latitude: 47, longitude: 8)],
            holes: [[Coordinate(latitude: 47.004, longitude: 8.004), Coordinate(latitude: 47.004, longitude: 8.006), Coordinate(latitude: 47.006, longitude: 8.006), Coordinate(latitude: 47.006, longitude: 8.004), Coordinate(latitude: 47.004, longitude: 8.004)]])]),
            propertiesJSON: "{\"name\":\"Lake\"}"),
    ]
    /// Two segments, the second a single point.
    static let points: [(Fix, Bool)] = [
        (fix(north: 0, seconds: 0, altitude: 400.25), true), (fix(north: 100.123456, seconds: 10, altitude: 401), false),
        (fix(north: 200, seconds: 20, altitude: 402), false), (fix(north: 5000, seconds: 4000, altitude: 410), true),
    ]

    static func overview() -> TrackOverview {
        var statistics = TrackStatisticsAccumulator()
        var bounds = BoundingBox(points[0].0.coordinate)
        for (fix, starts) in points {
            statistics.add(fix, startsSegment: starts)
            bounds.formUnion(fix.coordinate)
        }
        return TrackOverview(
            name: "Test & track", statistics: statistics.result, bounds: bounds, events: events, regions: regions,
            allPointsHaveAltitude: true)
    }

    static func write<W: TrackWriter>(_ writer: W) throws -> W {
        var writer = writer
        for (fix, starts) in points { try writer.write(fix, startsSegment: starts) }
        try writer.finish()
        return writer
    }

    @Test func gpxReadsBackWithSegmentsAndWaypoints() throws {
        let buffer = TextBuffer()
        _ = try Self.write(try GPXWriter(sink: buffer, overview: Self.overview()))
        var reader = GPXReader(bytes: Array(buffer.text.utf8), name: "export.gpx")
        var waypoints: [GPXPoint] = []
        var trackPoints: [GPXPoint] = []
        while let point = try reader.nextPoint() {
            if point.kind == .waypoint { waypoints.append(point) } else { trackPoints.append(point) }
        }
        #expect(waypoints.map(\.name) == ["Enter park", "Visit 1 arrival"])
        #expect(trackPoints.map(\.segment) == [0, 0, 0, 1])
        for (read, (written, _)) in zip(trackPoints, Self.points) {
            #expect(abs(read.fix.coordinate.latitude - written.coordinate.latitude) <= 5e-8)
            #expect(read.fix.time == written.time)
            #expect(read.fix.altitude == written.altitude)
        }
        #expect(buffer.text.contains("<desc>Entered &lt;park&gt; &amp; &quot;more&quot;.</desc>"))
        #expect(buffer.text.contains("<name>Test &amp; track</name>"))
    }

    @Test func geoJSONIsAMultiLineStringWithRightHandedRegions() throws {
        let buffer = TextBuffer()
        _ = try Self.write(try GeoJSONWriter(sink: buffer, overview: Self.overview()))
        let root = try JSONParser.parse(Array(buffer.text.utf8))
        guard case .array(let features) = root.member("features")?.value else { Issue.record("no features"); return }
        #expect(features.count == 1 + Self.events.count + Self.regions.count)
        let track = features[0]
        guard case .string(let type) = track.member("geometry")?.member("type")?.value,
            case .array(let lines) = track.member("geometry")?.member("coordinates")?.value
        else { Issue.record("no track geometry"); return }
        #expect(type == "MultiLineString")
        #expect(lines.count == 2)
        // The one-point segment is a line from the point to itself.
        if case .array(let single) = lines[1].value { #expect(single.count == 2) }
        if case .array(let first) = lines[0].value, case .array(let position) = first[1].value,
            case .number(let longitude) = position[0].value, case .number(let latitude) = position[1].value,
            case .number(let altitude) = position[2].value
        {
            #expect(latitude == Self.points[1].0.coordinate.latitude && longitude == Self.points[1].0.coordinate.longitude)
            #expect(altitude == 401)
        } else {
            Issue.record("positions are not [lon, lat, ele]")
        }
        for feature in features.suffix(Self.regions.count) {
            guard case .array(let rings) = feature.member("geometry")?.member("coordinates")?.value else { continue }
            for (index, ring) in rings.enumerated() {
                let area = RegionOutline.signedArea(Self.coordinates(ring))
                #expect(index == 0 ? area > 0 : area < 0, "ring \(index) has the wrong orientation")
            }
        }
        #expect(buffer.text.contains("\"sourceProperties\":{\"name\":\"Lake\"}"))
    }

    static func coordinates(_ ring: JSONNode) -> [Coordinate] {
        guard case .array(let positions) = ring.value else { return [] }
        return positions.compactMap { position in
            guard case .array(let pair) = position.value, case .number(let lon) = pair[0].value, case .number(let lat) = pair[1].value
            else { return nil }
            return Coordinate(latitude: lat, longitude: lon)
        }
    }

    @Test func kmlHasAStyledTrackPlacemarksAndPolygonsWithHoles() throws {
        let buffer = TextBuffer()
        _ = try Self.write(try KMLWriter(sink: buffer, overview: Self.overview()))
        let text = buffer.text
        #expect(text.components(separatedBy: "<LineString>").count - 1 == 2)
        #expect(text.contains("<MultiGeometry>"))
        #expect(text.contains("<styleUrl>#track</styleUrl>"))
        #expect(text.contains("<styleUrl>#enter</styleUrl>") && text.contains("<styleUrl>#arrival</styleUrl>"))
        #expect(text.components(separatedBy: "<innerBoundaryIs>").count - 1 == 1)
        #expect(text.contains("<TimeStamp><when>2026-06-01T08:00:10Z</when></TimeStamp>"))
    }

    @Test func aSingleSegmentIsALineString() throws {
        var overview = Self.overview()
        overview.statistics.segments = 1
        let buffer = TextBuffer()
        var writer = try GeoJSONWriter(sink: buffer, overview: overview)
        for (fix, starts) in Self.points.prefix(3) { try writer.write(fix, startsSegment: starts) }
        try writer.finish()
        #expect(buffer.text.contains("\"type\":\"LineString\""))
        _ = try JSONParser.parse(Array(buffer.text.utf8))
    }
}
