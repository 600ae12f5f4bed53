import Testing
import WaymarkCore
import WaymarkSources
import WaymarkTestSupport

/// Features of GPX and XML the reader must handle, on small documents written for each.
struct GPXReaderTests {
    static func point(_ children: String, _ attributes: String = "lat=\"46.5\" lon=\"13.25\"") throws -> GPXPoint {
        let points = try readAllPoints(gpx11("<wpt \(attributes)>\(children)</wpt>"))
        try #require(points.count == 1)
        return points[0]
    }

    @Test(arguments: [
        ("2019-10-22T14:36:00Z", Int64(1_571_754_960_000_000_000)),
        ("2019-10-22T14:36:00.000Z", 1_571_754_960_000_000_000),
        ("2019-10-22T14:36:00.25Z", 1_571_754_960_250_000_000),
        ("1901-12-13T20:45:52.2073437Z", -2_147_483_647_792_656_300),
        ("2019-10-22T16:36:00+02:00", 1_571_754_960_000_000_000),
        ("2019-10-22T09:06:00.5-05:30", 1_571_754_960_500_000_000),
        ("  2019-10-22T14:36:00Z\n  ", 1_571_754_960_000_000_000),
    ])
    func timestamps(_ text: String, _ nanoseconds: Int64) throws {
        let point = try Self.point("<time>\(text)</time>")
        #expect(point.fix.time == Timestamp(nanosecondsSince1970: nanoseconds))
    }

    @Test func pointsWithoutTimeAreAccepted() throws {
        let point = try Self.point("<ele>12</ele>")
        #expect(point.fix.time == nil)
        #expect(point.fix.altitude == 12)
    }

    @Test func everyPointFieldIsRead() throws {
        let point = try Self.point(
            """
            <ele>-12.5</ele><time>2008-08-21T13:57:20Z</time><name>Start</name>
            <hdop>1.2</hdop><vdop>2.5</vdop><pdop>3</pdop><sat>7</sat><fix>dgps</fix>
            <speed>4.5</speed><course>270.25</course><sym>Flag</sym>
            """)
        let expected = Fix(
            time: Timestamp(rfc3339: "2008-08-21T13:57:20Z"), coordinate: Coordinate(latitude: 46.5, longitude: 13.25),
            altitude: -12.5, horizontalAccuracy: 1.2 * GPXAccuracy.metresPerHDOP, hdop: 1.2, vdop: 2.5, pdop: 3,
            satellites: 7, mode: .dgps, speed: 4.5, course: 270.25)
        #expect(point.fix == expected)
        #expect(point.name == "Start")
        #expect(point.kind == .waypoint)
    }

    @Test(arguments: [("none", FixMode.none), ("2d", .twoD), ("3d", .threeD), ("dgps", .dgps), ("pps", .pps)])
    func fixTypes(_ text: String, _ mode: FixMode) throws {
        #expect(try Self.point("<fix>\(text)</fix>").fix.mode == mode)
    }

    @Test func tracksSegmentsRoutesAndWaypointsInDocumentOrder() throws {
        let text = gpx11(
            """
            <wpt lat="1" lon="1"/>
            <trk><name>A</name><trkseg><trkpt lat="2" lon="2"/></trkseg><trkseg/><trkseg><trkpt lat="3" lon="3"/></trkseg></trk>
            <rte><rtept lat="4" lon="4"><name>turn</name></rtept></rte>
            <trk><trkseg><trkpt lat="5" lon="5"></trkpt></trkseg></trk>
            """)
        var reader = GPXReader(bytes: Array(text.utf8), name: "order.gpx")
        let points = try readAllPoints(&reader)
        #expect(points.map(\.kind) == [.waypoint, .trackPoint, .trackPoint, .routePoint, .trackPoint])
        #expect(points.map(\.fix.coordinate.latitude) == [1, 2, 3, 4, 5])
        #expect(points.map(\.track) == [nil, 0, 0, nil, 1])
        #expect(points.map(\.segment) == [nil, 0, 2, nil, 0])
        #expect(points.map(\.route) == [nil, nil, nil, 0, nil])
        #expect(points[3].name == "turn")
        #expect(reader.trackCount == 2)
        #expect(reader.routeCount == 1)
        #expect(reader.version == .v1_1)
    }

    @Test func gpx10WithPrefixesSpeedAndCourse() throws {
        let text = """
            <?xml version="1.0"?>
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/0" creator="test">
            <g:trk><g:trkseg>
            <g:trkpt lat="51.742691156" lon="8.673061007"><g:ele>134.098</g:ele><g:speed>5.555555</g:speed>
            <g:course>93.5</g:course><g:time>2013-08-15T05:04:17Z</g:time></g:trkpt>
            </g:trkseg></g:trk>
            </g:gpx>
            """
        var reader = GPXReader(bytes: Array(text.utf8), name: "v10.gpx")
        let points = try readAllPoints(&reader)
        #expect(reader.version == .v1_0)  // from the namespace: no version attribute
        #expect(points.count == 1)
        #expect(points.first?.fix.speed == 5.555555)
        #expect(points.first?.fix.course == 93.5)
        #expect(points.first?.fix.altitude == 134.098)
        #expect(points.first?.fix.coordinate == Coordinate(latitude: 51.742691156, longitude: 8.673061007))
    }

    @Test func extensionsAndUnknownElementsAreSkipped() throws {
        let point = try Self.point(
            """
            <extensions>
              <ns3:TrackPointExtension><ns3:atemp>21.0</ns3:atemp><ns3:hr>89</ns3:hr>
                <ele>999</ele><time>not a time</time></ns3:TrackPointExtension>
            </extensions>
            <ele>91.8000030517578125</ele>
            <link href="http://example.com"><text>x</text></link>
            """)
        #expect(point.fix.altitude == 91.8000030517578125)
        #expect(point.fix.time == nil)
    }

    @Test func entitiesAndCharacterReferencesInNames() throws {
        let point = try Self.point("<name>Fish &amp; Chips &lt;&gt; &quot;&apos; &#233;&#xE9;&#x1F6B2;</name>")
        #expect(point.name == "Fish & Chips <> \"' éé\u{1F6B2}")
    }

    @Test func cdataAndCommentsInText() throws {
        let point = try Self.point(
            "<name><![CDATA[<b>Bold</b> & ]]>more<!-- comment --> text</name><ele><![CDATA[ 12.5 ]]></ele>")
        #expect(point.name == "<b>Bold</b> & more text")
        #expect(point.fix.altitude == 12.5)
    }

    @Test func referencesAndWhitespaceInCoordinates() throws {
        let point = try Self.point("", "lat='&#52;6.5' lon=\" 13.25\n\"")
        #expect(point.fix.coordinate == Coordinate(latitude: 46.5, longitude: 13.25))
    }

    @Test func commentsProcessingInstructionsAndAPlainDoctype() throws {
        let text = """
            <?xml version="1.0" encoding="utf-8" standalone="yes"?>
            <!-- exported -->
            <!DOCTYPE gpx SYSTEM "gpx.dtd">
            <?xml-stylesheet href="style.xsl"?>
            <gpx version="1.1"><!-- a -> b --><?pi data?><wpt lat="1" lon="2"/></gpx>
            <!-- trailing -->
            """
        let points = try readAllPoints(text)
        #expect(points.count == 1)
    }

    @Test(arguments: [7, 13, GPXReader.defaultBufferSize])
    func byteOrderMarkAndCRLF(_ bufferSize: Int) throws {
        let text = "<?xml version=\"1.0\"?>\r\n<gpx version=\"1.1\">\r\n<wpt lat=\"1\" lon=\"2\"><name>x</name></wpt>\r\n</gpx>\r\n"
        var reader = GPXReader(bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8), name: "bom.gpx", bufferSize: bufferSize)
        #expect(try readAllPoints(&reader).first?.name == "x")
        // With a mark, columns still start at 1 after it.
        var bad = GPXReader(bytes: [0xEF, 0xBB, 0xBF] + Array("<kml/>".utf8), name: "bom.gpx", bufferSize: bufferSize)
        let error = #expect(throws: GPXError.self) { try bad.nextPoint() }
        #expect(error?.location == SourceLocation(file: "bom.gpx", line: 1, column: 1))
    }

    @Test func aCopiedReaderContinuesIndependently() throws {
        let text = gpx11((1...20).map { "<wpt lat=\"\($0)\" lon=\"0\"/>" }.joined(separator: "\n"))
        var reader = GPXReader(bytes: Array(text.utf8), name: "copy.gpx", bufferSize: 16)
        for _ in 0..<5 { _ = try reader.nextPoint() }
        var copy = reader
        let rest = try readAllPoints(&reader)
        let restOfCopy = try readAllPoints(&copy)
        #expect(rest.map(\.fix.coordinate.latitude) == (6...20).map(Double.init))
        #expect(restOfCopy == rest)
    }

    @Test func aCopiedFileReaderContinuesIndependently() throws {
        let directory = try TemporaryDirectory(prefix: "waymark-gpx")
        let path = try directory.write("copy.gpx", gpx11((1...50).map { "<wpt lat=\"\($0)\" lon=\"0\"/>" }.joined(separator: "\n")))
        var reader = try GPXReader(path: path, bufferSize: 32)
        for _ in 0..<10 { _ = try reader.nextPoint() }
        var copy = reader
        #expect(try readAllPoints(&reader).count == 40)
        #expect(try readAllPoints(&copy).count == 40)
    }
}
