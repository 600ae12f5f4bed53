import Foundation
import Testing
import WaymarkCore
import WaymarkSources
import WaymarkTestSupport

/// The real GPX files in `../shared/data/gpx`, with the counts from `MANIFEST.md`.
struct GPXSharedFilesTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var file: String
        var tracks: Int
        var trackPoints: Int
        var waypoints: Int
        var untimed: Int
        var version: GPXVersion
        var testDescription: String { file }
    }

    /// Track points, tracks and waypoints as MANIFEST.md lists them. Where the manifest gives
    /// no waypoint count (bike~gpx, gtrnctr_power, korita-zbevnica, skytraq,
    /// cerknicko-without-times) the count is gpxpy's; untimed counts follow from the manifest's
    /// "time" column (korita: 513 of 871 timed; cerknicko-without-times: only 5 timed).
    static let expected: [Expected] = [
        .init(file: "Mojstrovka.gpx", tracks: 1, trackPoints: 184, waypoints: 0, untimed: 0, version: .v1_0),
        .init(file: "bikeride.gpx", tracks: 1, trackPoints: 8234, waypoints: 0, untimed: 0, version: .v1_1),
        .init(file: "bike~gpx.gpx", tracks: 1, trackPoints: 1812, waypoints: 2, untimed: 0, version: .v1_0),
        .init(file: "cerknicko-jezero.gpx", tracks: 8, trackPoints: 296, waypoints: 7, untimed: 0, version: .v1_0),
        .init(
            file: "cerknicko-without-times.gpx", tracks: 8, trackPoints: 296, waypoints: 7, untimed: 291,
            version: .v1_0),
        .init(file: "endomondo.gpx", tracks: 1, trackPoints: 5181, waypoints: 0, untimed: 0, version: .v1_1),
        .init(file: "gtrnctr_power.gpx", tracks: 1, trackPoints: 5109, waypoints: 1, untimed: 0, version: .v1_1),
        .init(file: "korita-zbevnica.gpx", tracks: 4, trackPoints: 871, waypoints: 2, untimed: 358, version: .v1_0),
        .init(
            file: "skytraq-miniHomer2_8.gpx", tracks: 1, trackPoints: 8713, waypoints: 4, untimed: 0, version: .v1_0),
        .init(file: "tcxtest.gpx", tracks: 1, trackPoints: 1202, waypoints: 0, untimed: 0, version: .v1_1),
        .init(
            file: "testneighboursearch.gpx", tracks: 5, trackPoints: 41138, waypoints: 706, untimed: 41138,
            version: .v1_1),
    ]

    @Test func everySharedFileIsInTheTable() throws {
        let names = try ProjectPaths.sharedGPXFiles().map(\.lastPathComponent)
        #expect(names == Self.expected.map(\.file))
    }

    @Test(arguments: expected)
    func countsMatchTheManifest(_ expected: Expected) throws {
        var reader = try GPXReader(path: ProjectPaths.sharedData("gpx/\(expected.file)").path)
        let points = try readAllPoints(&reader)
        let trackPoints = points.filter { $0.kind == .trackPoint }
        #expect(reader.version == expected.version)
        #expect(trackPoints.count == expected.trackPoints)
        #expect(points.filter { $0.kind == .waypoint }.count == expected.waypoints)
        #expect(points.filter { $0.kind == .routePoint }.isEmpty)
        #expect(reader.trackCount == expected.tracks)
        #expect(reader.routeCount == 0)
        #expect(trackPoints.filter { $0.fix.time == nil }.count == expected.untimed)
    }

    @Test func endomondoHasTwoSegments() throws {
        let points = try readAllPoints(path: ProjectPaths.sharedData("gpx/endomondo.gpx").path)
        #expect(Set(points.compactMap(\.segment)) == [0, 1])
    }

    @Test func fixSourceCountsUntimedPointsAndSkipsWaypoints() throws {
        var source = try GPXFixSource(path: ProjectPaths.sharedData("gpx/cerknicko-without-times.gpx").path)
        var fixes = 0
        while try source.next() != nil { fixes += 1 }
        #expect(fixes == 296)
        #expect(source.pointCount == 296)
        #expect(source.untimedPointCount == 291)
        #expect(source.skippedWaypointCount == 7)
        #expect(source.version == .v1_0)
    }

    /// Prints kind, lat, lon, ele and time (epoch seconds and microseconds) for every point,
    /// tracks first, then routes, then waypoints, as gpxpy reads them.
    static let gpxpyScript = """
        import calendar, sys, gpxpy
        def line(kind, p):
            t = "None" if p.time is None else "%d %d" % (calendar.timegm(p.time.utctimetuple()), p.time.microsecond)
            print(kind, repr(p.latitude), repr(p.longitude), repr(p.elevation), t)
        g = gpxpy.parse(open(sys.argv[1], encoding="utf-8"))
        for t in g.tracks:
            for s in t.segments:
                for p in s.points: line("T", p)
        for r in g.routes:
            for p in r.points: line("R", p)
        for p in g.waypoints: line("W", p)
        """

    @Test(arguments: expected.map(\.file))
    func agreesWithGpxpy(_ file: String) async throws {
        let path = ProjectPaths.sharedData("gpx/\(file)").path
        let result = try await runPython(Self.gpxpyScript, [path])
        try #require(result.status == 0, "gpxpy failed: \(result.stderr)")
        let reference = result.stdoutLines
        let points = try readAllPoints(path: path)
        let ordered =
            points.filter { $0.kind == .trackPoint } + points.filter { $0.kind == .routePoint }
            + points.filter { $0.kind == .waypoint }
        try #require(ordered.count == reference.count)
        var mismatches = 0
        for (point, line) in zip(ordered, reference) {
            let fields = line.split(separator: " ").map(String.init)
            let kind = point.kind == .trackPoint ? "T" : point.kind == .routePoint ? "R" : "W"
            let lat = try #require(Double(fields[1]))
            let lon = try #require(Double(fields[2]))
            var same = fields[0] == kind && abs(point.fix.coordinate.latitude - lat) <= 1e-9
                && abs(point.fix.coordinate.longitude - lon) <= 1e-9
            if fields[3] == "None" {
                same = same && point.fix.altitude == nil
            } else if let ele = Double(fields[3]), let altitude = point.fix.altitude {
                same = same && abs(altitude - ele) <= 1e-9
            } else {
                same = false
            }
            if fields[4] == "None" {
                same = same && point.fix.time == nil
            } else if let time = point.fix.time {
                let (seconds, nanos) = floorDivide(time.nanosecondsSince1970, 1_000_000_000)
                same = same && String(seconds) == fields[4] && String(nanos / 1000) == fields[5]
            } else {
                same = false
            }
            if !same {
                mismatches += 1
                if mismatches <= 5 { Issue.record("\(file): gpxpy says \(line), we read \(point)") }
            }
        }
        #expect(mismatches == 0)
    }

    /// Every token straddles reads of 7 or 13 bytes; the points must not change.
    @Test(arguments: [7, 13, 4096])
    func tinyBuffersGiveTheSamePoints(_ bufferSize: Int) throws {
        for url in try ProjectPaths.sharedGPXFiles() {
            let bytes = try [UInt8](Data(contentsOf: url))
            var reader = GPXReader(bytes: bytes, name: url.lastPathComponent, bufferSize: bufferSize)
            let small = try readAllPoints(&reader)
            let normal = try readAllPoints(path: url.path)
            #expect(small == normal, "\(url.lastPathComponent) with \(bufferSize)-byte reads")
        }
    }

    @Test func tinyReadsFromAFile() throws {
        let path = ProjectPaths.sharedData("gpx/cerknicko-jezero.gpx").path
        #expect(try readAllPoints(path: path, bufferSize: 13) == readAllPoints(path: path))
    }
}

private func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
    let (q, r) = a.quotientAndRemainder(dividingBy: b)
    return r < 0 ? (q - 1, r + b) : (q, r)
}
