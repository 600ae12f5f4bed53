import Foundation
import Testing
import WaymarkCore
import WaymarkExport
import WaymarkGeoJSON
import WaymarkRegions

/// GeoJSON over the antimeridian (RFC 7946 §3.1.9): the track and circles on the seam are cut
/// there, so no segment spans more than 180° of longitude; everything else is as before.
@Suite struct AntimeridianTests {
    /// A fix near Fiji.
    static func fiji(_ longitude: Double, _ latitude: Double, altitude: Double? = nil) -> Fix {
        Fix(time: nil, coordinate: Coordinate(latitude: latitude, longitude: longitude), altitude: altitude)
    }

    /// Eastward over the seam between the second and third fix.
    static let eastward = [
        fiji(179.9, -17.00, altitude: 10), fiji(179.95, -17.01, altitude: 20),
        fiji(-179.98, -17.02, altitude: 40), fiji(-179.9, -17.03, altitude: 50),
    ]

    /// The GeoJSON of `fixes` as one segment each (with the overview the export's first pass
    /// makes: the same accumulator), and its track's lines as `[longitude, latitude, altitude?]`.
    static func export(_ segments: [[Fix]], regions: [Region] = []) throws -> (text: String, type: String, lines: [[[Double]]]) {
        var statistics = TrackStatisticsAccumulator()
        var bounds = TrackBoundsAccumulator()
        for fix in segments.joined() { bounds.add(fix.coordinate) }
        for segment in segments {
            for (index, fix) in segment.enumerated() { statistics.add(fix, startsSegment: index == 0) }
        }
        let overview = TrackOverview(
            statistics: statistics.result, bounds: bounds.bounds, regions: regions,
            allPointsHaveAltitude: segments.joined().allSatisfy { $0.altitude != nil })
        let buffer = TextBuffer()
        var writer = try GeoJSONWriter(sink: buffer, overview: overview)
        for segment in segments {
            for (index, fix) in segment.enumerated() { try writer.write(fix, startsSegment: index == 0) }
        }
        try writer.finish()
        let root = try JSONParser.parse(Array(buffer.text.utf8))
        guard case .array(let features) = root.member("features")?.value,
            case .string(let type) = features[0].member("geometry")?.member("type")?.value,
            let coordinates = features[0].member("geometry")?.member("coordinates")
        else { throw Missing() }
        let lines = type == "LineString" ? [positions(coordinates)] : elements(coordinates).map(positions)
        return (buffer.text, type, lines)
    }

    struct Missing: Error {}

    static func elements(_ node: JSONNode) -> [JSONNode] {
        if case .array(let items) = node.value { items } else { [] }
    }

    static func positions(_ node: JSONNode) -> [[Double]] {
        elements(node).map { position in elements(position).compactMap { if case .number(let n) = $0.value { n } else { nil } } }
    }

    /// Every step of every line spans less than 180° of longitude.
    static func noStepSpansHalfTheWorld(_ lines: [[[Double]]]) -> Bool {
        lines.allSatisfy { line in zip(line, line.dropFirst()).allSatisfy { abs($1[0] - $0[0]) < 180 } }
    }

    /// Where the step from `a` to `b` meets the seam, computed here the long way: the
    /// longitudes unwrapped east of `a`, then a straight line.
    static func seamLatitude(_ a: Fix, _ b: Fix) -> (latitude: Double, altitude: Double) {
        let east = a.coordinate.longitude > 0
        let (from, to) = east
            ? (a.coordinate.longitude, b.coordinate.longitude + 360) : (a.coordinate.longitude, b.coordinate.longitude - 360)
        let t = ((east ? 180 : -180) - from) / (to - from)
        return (a.coordinate.latitude + t * (b.coordinate.latitude - a.coordinate.latitude), a.altitude! + t * (b.altitude! - a.altitude!))
    }

    @Test(arguments: [true, false])
    func aTrackOverTheSeamIsCutThereIntoAMultiLineString(eastward: Bool) throws {
        let fixes = eastward ? Self.eastward : Self.eastward.reversed()
        let (_, type, lines) = try Self.export([fixes])
        #expect(type == "MultiLineString")
        try #require(lines.count == 2)
        #expect(Self.noStepSpansHalfTheWorld(lines))
        let seam = Self.seamLatitude(fixes[1], fixes[2])
        let leaving: Double = eastward ? 180 : -180
        let (end, start) = (lines[0].last!, lines[1].first!)
        #expect(end[0] == leaving && start[0] == -leaving)
        #expect(abs(end[1] - seam.latitude) < 1e-9 && start[1] == end[1])
        #expect(abs(end[2] - seam.altitude) < 1e-6 && start[2] == end[2])
        // Every fix is there, in order, around the two cut points.
        let written = lines[0].dropLast() + lines[1].dropFirst()
        #expect(written.map { [$0[0], $0[1], $0[2]] } == fixes.map { [$0.coordinate.longitude, $0.coordinate.latitude, $0.altitude!] })
    }

    @Test func thereAndBackIsCutTwiceWithoutAltitudesWhenSomeAreMissing() throws {
        var fixes = Self.eastward + Self.eastward.reversed().dropFirst()
        fixes[0].altitude = nil
        let (_, type, lines) = try Self.export([fixes])
        #expect(type == "MultiLineString")
        try #require(lines.map(\.count) == [3, 5, 3])
        #expect(Self.noStepSpansHalfTheWorld(lines))
        #expect(lines.joined().allSatisfy { $0.count == 2 })
        #expect(lines[0].last![0] == 180 && lines[1].first![0] == -180)
        #expect(lines[1].last![0] == -180 && lines[2].first![0] == 180)
    }

    @Test func aGapOverTheSeamIsNoCut() throws {
        let (_, type, lines) = try Self.export([Array(Self.eastward.prefix(2)), Array(Self.eastward.suffix(2))])
        #expect(type == "MultiLineString")
        #expect(lines.count == 2)
        #expect(!lines.joined().contains { abs($0[0]) == 180 })
    }

    @Test func aTrackBesideTheSeamIsTheSameLineStringAsBefore() throws {
        let fixes = [Self.fiji(179.5, -17, altitude: 10), Self.fiji(179.6, -17.1, altitude: 11), Self.fiji(179.7, -17.25, altitude: 12.5)]
        let (text, type, _) = try Self.export([fixes])
        #expect(type == "LineString")
        #expect(text.contains(#""geometry":{"type":"LineString","coordinates":[[179.5,-17,10],[179.6,-17.1,11],[179.7,-17.25,12.5]]}}"#))
    }

    @Test(arguments: [true, false])
    func theBboxOfATrackOverTheSeamHasWestGreaterThanEast(eastward: Bool) throws {
        let (text, _, _) = try Self.export([eastward ? Self.eastward : Self.eastward.reversed()])
        // RFC 7946 §5.2: from 179.9°E over the seam to 179.9°W, not −179.9…179.95 round the world.
        #expect(text.hasPrefix(#"{"type":"FeatureCollection","bbox":[179.9,-17.03,-179.9,-17],"#))
    }

    @Test func theBboxOfATrackBesideTheSeamIsThePlainBox() throws {
        let fixes = [Self.fiji(179.5, -17), Self.fiji(179.6, -17.1), Self.fiji(179.7, -17.25)]
        let (text, _, _) = try Self.export([fixes])
        #expect(text.hasPrefix(#"{"type":"FeatureCollection","bbox":[179.5,-17.25,179.7,-17],"#))
    }

    /// Longitudes of a track and the west and east edges of its box in −180…180: the short way
    /// round only when strictly narrower than the plain box (a tie, −90 and 90, stays plain).
    @Test(arguments: [
        ([179.9, 179.95, -179.98, -179.9], 179.9, -179.9),
        ([-179.9, 179.9], 179.9, -179.9),
        ([170.0, -170.0], 170.0, -170.0),
        ([-0.5, 0.25, 0.5], -0.5, 0.5),
        ([-90.0, 90.0], -90.0, 90.0),
        ([-180.0, 179.0], 179.0, 180.0),
        ([10.0, 20.0], 10.0, 20.0),
        ([-20.0, -10.0], -20.0, -10.0),
    ])
    func theBoundsAreTheShortWayRound(longitudes: [Double], west: Double, east: Double) throws {
        var accumulator = TrackBoundsAccumulator()
        for longitude in longitudes { accumulator.add(Coordinate(latitude: -17, longitude: longitude)) }
        let bounds = try #require(accumulator.bounds)
        #expect(bounds.westAndEast.west == west && bounds.westAndEast.east == east)
    }

    /// The feature of each region, as `(type, polygons of rings of [longitude, latitude])`.
    static func regionGeometries(_ text: String) throws -> [(type: String, polygons: [[[[Double]]]])] {
        let root = try JSONParser.parse(Array(text.utf8))
        return elements(root.member("features")!).dropFirst().compactMap { feature in
            guard case .string(let type) = feature.member("geometry")?.member("type")?.value,
                let coordinates = feature.member("geometry")?.member("coordinates")
            else { return nil }
            let polygons = type == "Polygon" ? [coordinates] : elements(coordinates)
            return (type, polygons.map { elements($0).map(positions) })
        }
    }

    @Test func aCircleOnTheSeamIsCutIntoTwoPolygonsOneEachSide() throws {
        let buoy = Region(identifier: "buoy", shape: .circle(center: Coordinate(latitude: -17, longitude: 179.999), radius: 1000))
        let away = Region(identifier: "away", shape: .circle(center: Coordinate(latitude: -17, longitude: 179.9), radius: 1000))
        let (text, _, _) = try Self.export([Self.eastward], regions: [buoy, away])
        let regions = try Self.regionGeometries(text)
        try #require(regions.count == 2)
        #expect(regions[0].type == "MultiPolygon")
        try #require(regions[0].polygons.count == 2)
        var vertices = 0
        for polygon in regions[0].polygons {
            try #require(polygon.count == 1)
            let ring = polygon[0]
            #expect(ring.first! == ring.last!)
            #expect(Self.noStepSpansHalfTheWorld([ring]))
            let side = ring.first { abs($0[0]) != 180 }![0].sign
            #expect(ring.allSatisfy { $0[0].sign == side })
            // Two vertices on the seam, both on this side's meridian.
            #expect(Set(ring.dropLast().filter { abs($0[0]) == 180 }.map { $0[0] }) == [side == .plus ? 180 : -180])
            #expect(ring.dropLast().filter { abs($0[0]) == 180 }.count == 2)
            let area = RegionOutline.signedArea(ring.map { Coordinate(latitude: $0[1], longitude: $0[0]) })
            #expect(area > 0, "exterior rings stay counterclockwise")
            vertices += ring.count - 1 - 2
        }
        #expect(vertices == RegionOutline.circleVertices)
        // The seam's latitudes match from both sides.
        let seams = regions[0].polygons.map { $0[0].filter { abs($0[0]) == 180 }.map { $0[1] }.sorted() }
        #expect(Set(seams[0]) == Set(seams[1]))
        #expect(regions[1].type == "Polygon")
        #expect(regions[1].polygons[0][0].count == RegionOutline.circleVertices + 1)
    }
}
