import Foundation
import Testing
import WaymarkCore
import WaymarkExport
import WaymarkTestSupport

/// The day overlay of `waymark export --timeline`, written and read back by independent readers:
/// xmllint against the GPX 1.1 schema, gpxpy, and Python's json.
@Suite struct DayOverlayTests {
    static let start = Timestamp(secondsSince1970: 1_777_700_000)

    static let overlay = DayOverlay(
        name: "phone, Saturday 2 May 2026",
        stops: [
            .init(
                name: "Home & garden", description: "00:00–08:12 (8 h 12 min)", coordinate: Coordinate(latitude: 52.39, longitude: 13.06),
                arrival: start, departure: start.adding(seconds: 3600)),
            .init(
                name: "Office", description: "08:40– (open)", coordinate: Coordinate(latitude: 52.41, longitude: 13.10),
                arrival: start.adding(seconds: 5280), departure: start.adding(seconds: 9000), open: true),
        ],
        legs: [
            .init(
                name: "Cycling to Office", description: "6.4 km in 28 min", mode: "cycling", colour: PictureColor(0x0072b2),
                start: start.adding(seconds: 3600), end: start.adding(seconds: 5280),
                path: [Coordinate(latitude: 52.39, longitude: 13.06), Coordinate(latitude: 52.40, longitude: 13.09), Coordinate(latitude: 52.41, longitude: 13.10)],
                distance: 6400, duration: 1680),
            .init(
                name: "Walking", description: "a step", mode: "walking", colour: PictureColor(0x009e73), start: start.adding(seconds: 9000),
                end: start.adding(seconds: 9010), path: [Coordinate(latitude: 52.41, longitude: 13.10)], distance: 0, duration: 10),
        ], attribution: "Place names: GeoNames, geonames.org (CC BY 4.0)")

    @Test func gpxIsValidAndReadsBackAsStopsAndTrips() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("day.gpx", DayOverlayGPX.document(Self.overlay))
        let schema = "/usr/local/share/waymark/schemas/Topografix_gpx11.xsd"
        let lint = try await runProcess(URL(fileURLWithPath: "/usr/bin/xmllint"), ["--noout", "--nonet", "--schema", schema, file])
        #expect(lint.status == 0, "\(lint.stderr)")
        let read = try await runPython(
            """
            import gpxpy, sys
            g = gpxpy.parse(open(sys.argv[1]))
            for w in g.waypoints: print('wpt', w.name, w.type, round(w.latitude, 2))
            for t in g.tracks: print('trk', t.name, t.type, sum(len(s.points) for s in t.segments), t.segments[0].points[0].time.isoformat())
            print(g.name)
            """, [file])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(
            read.stdoutLines == [
                "wpt Home & garden stay 52.39", "wpt Office stay 52.41", "trk Cycling to Office cycling 3 2026-05-02T06:33:20+00:00",
                "trk Walking walking 1 2026-05-02T08:03:20+00:00", "phone, Saturday 2 May 2026",
            ])
        // Each trip in its mode's colour, in the styling extensions the export's route uses.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("<gpx_style:color>0072B2</gpx_style:color>"))
        #expect(text.contains("<osmand:color>#009e73</osmand:color>"))
        // GeoNames' CC BY credit, in the metadata's copyright (the schema above checked its place).
        #expect(text.contains("<copyright author=\"Place names: GeoNames, geonames.org (CC BY 4.0)\">"))
    }

    @Test func geoJSONHasAFeaturePerStopAndTrip() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("day.geojson", DayOverlayGeoJSON.document(Self.overlay))
        let read = try await runPython(
            """
            import json, sys
            d = json.load(open(sys.argv[1]))
            print(d['type'], d['properties']['name'], len(d['bbox']), d['properties']['attribution'])
            for f in d['features']:
                p = f['properties']
                print(p['kind'], p['name'], f['geometry']['type'], len(f['geometry']['coordinates']), p.get('stroke', p.get('marker-color')), p['open'])
            """, [file])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(
            read.stdoutLines == [
                "FeatureCollection phone, Saturday 2 May 2026 4 Place names: GeoNames, geonames.org (CC BY 4.0)", "stay Home & garden Point 2 #2c7fb8 False", "stay Office Point 2 #2c7fb8 True",
                "trip Cycling to Office LineString 3 #0072b2 False", "trip Walking LineString 2 #009e73 False",
            ])
    }

    @Test func anEmptyDayIsStillADocument() {
        let empty = DayOverlay(name: "phone, no data", stops: [], legs: [])
        #expect(DayOverlayGPX.document(empty).contains("<desc>0 stays, 0 trips, 0.0 km</desc>"))
        #expect(DayOverlayGeoJSON.document(empty) == "{\"type\":\"FeatureCollection\",\"properties\":{\"name\":\"phone, no data\"},\"features\":[]}\n")
    }
}
