import Testing
import WaymarkCore
import WaymarkSources

/// A GPX point's accuracy in metres (docs/replay.md, "GPX: accuracy"): an accuracy element
/// in `<extensions>` as it is, else `hdop` × 5 m, else none; OsmAnd's `hdop` is already metres.
struct GPXAccuracyTests {
    static func accuracy(_ children: String, creator: String = "test") throws -> Double? {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="\(creator)" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><trkseg><trkpt lat="46.5" lon="13.25">\(children)</trkpt></trkseg></trk>
            </gpx>
            """
        for size in [7, 13, GPXReader.defaultBufferSize] {
            let points = try readAllPoints(text, bufferSize: size)
            try #require(points.count == 1)
            if size == GPXReader.defaultBufferSize { return points[0].fix.horizontalAccuracy }
        }
        return nil
    }

    @Test(arguments: [
        // GPSLogger, Garmin, gpsbabel: hdop only.
        ("<ele>300</ele><hdop>1.2</hdop>", 6.0),
        ("<hdop>0.8</hdop><vdop>1.5</vdop>", 4.0),
        // TPX (Logiqx) and trails.io write hacc in their own namespaces, nested in a group.
        ("<hdop>1.2</hdop><extensions><tpx:extras><tpx:hacc>2.5</tpx:hacc></tpx:extras></extensions>", 2.5),
        ("<extensions><trailsio:TrackPointExtension><trailsio:hacc>12</trailsio:hacc></trailsio:TrackPointExtension></extensions>", 12),
        // Loggers exporting Android's Location.getAccuracy().
        ("<extensions><accuracy>32.0</accuracy></extensions><hdop>3</hdop>", 32),
        ("<extensions><horizontalAccuracy> 7.5 </horizontalAccuracy></extensions>", 7.5),
        // Written as a direct child of the point, outside the schema.
        ("<time>2024-01-01T00:00:00Z</time><accuracy>9</accuracy>", 9),
    ])
    func accuracyIsReadFromExtensionsElseFromHDOP(_ children: String, _ metres: Double) throws {
        #expect(try Self.accuracy(children) == metres)
    }

    @Test(arguments: [
        "<ele>300</ele>",
        // 0 means "unknown" to the recorders that write it.
        "<hdop>0</hdop>",
        "<extensions><accuracy>0.0</accuracy></extensions>",
        "<hdop>-1</hdop>",
        // Another extension's element of another name is not an accuracy.
        "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>",
        "<extensions/>",
    ])
    func noAccuracyIsMadeUp(_ children: String) throws {
        #expect(try Self.accuracy(children) == nil)
    }

    @Test func osmAndWritesMetresIntoHDOP() throws {
        #expect(try Self.accuracy("<hdop>12.0</hdop>", creator: "OsmAnd Maps 4.6.5 (4.6.5.10)") == 12)
        #expect(try Self.accuracy("<hdop>12.0</hdop>", creator: "GPSLogger 131 - http://gpslogger.mendhak.com/") == 60)
    }

    @Test func aPointAfterTheExtensionsKeepsItsOwnValues() throws {
        let text = gpx11(
            """
            <trk><trkseg>
            <trkpt lat="1" lon="2"><extensions><a><hacc>3</hacc><b/></a></extensions><name>first</name></trkpt>
            <trkpt lat="1" lon="3"><hdop>2</hdop></trkpt>
            <trkpt lat="1" lon="4"/>
            </trkseg></trk>
            """)
        let points = try readAllPoints(text, bufferSize: 7)
        #expect(points.map(\.fix.horizontalAccuracy) == [3, 10, nil])
        #expect(points.first?.name == "first")
    }
}
