import Foundation
import Testing
import WaymarkTestSupport

/// Every way `waymark export` can be asked the wrong thing: a clear message, a non-zero exit
/// status (64 for usage errors), and no output file — not even a temporary one — left behind.
@Suite struct ExportErrorTests {
    static let track = "Tracks/lakeside-ride.gpx"

    /// Runs an export into a fresh folder and checks that it failed cleanly there.
    static func failing(_ arguments: [String], status: Int32? = nil, expecting message: String) async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let result = try await runWaymark(["export"] + arguments.map { $0.replacingOccurrences(of: "DIR", with: directory.url.path) })
        #expect(result.status != 0)
        if let status { #expect(result.status == status, "\(result.stderr)") }
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(left.isEmpty, "left behind: \(left)")
        return directory
    }

    @Test func aMissingTrackNamesThePath() async throws {
        _ = try await Self.failing(["/nonexistent/ride.gpx", "--format", "gpx", "-o", "DIR/out.gpx"], status: 1, expecting: "/nonexistent/ride.gpx")
    }

    @Test func malformedGPXIsReportedWithLineAndColumn() async throws {
        let source = try TemporaryDirectory()
        let bad = try source.write("bad.gpx", """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="47.1" lon="8.1"/>
            <trkpt lat="91" lon="8.1"/>
            </trkseg></trk></gpx>
            """)
        _ = try await Self.failing([bad, "--format", "kml", "-o", "DIR/out.kml"], status: 1, expecting: "bad.gpx:4:")
    }

    @Test func aBadFormatListsTheFormats() async throws {
        _ = try await Self.failing([Self.track, "--format", "shp", "-o", "DIR/out.shp"], status: 64, expecting: "gpx, geojson, kml, svg, png, overlay")
    }

    @Test(arguments: ["abc", "0", "-5", "0.01", "nan", "inf"])
    func aBadToleranceIsAUsageError(value: String) async throws {
        _ = try await Self.failing([Self.track, "--format", "gpx", "--simplify", value, "-o", "DIR/out.gpx"], status: 64, expecting: "--simplify")
    }

    @Test func fromAfterToIsAUsageError() async throws {
        _ = try await Self.failing(
            ["--db", "DIR/none.sqlite", "--from", "2026-06-01T09:00:00Z", "--to", "2026-06-01T08:00:00Z", "--format", "gpx", "-o", "DIR/out.gpx"],
            status: 64, expecting: "must be before --to")
    }

    @Test func aBadTimeIsAUsageError() async throws {
        _ = try await Self.failing(["--db", "DIR/none.sqlite", "--from", "yesterday", "--format", "gpx", "-o", "DIR/out.gpx"], status: 64, expecting: "RFC 3339")
    }

    @Test func fromWithoutTheDatabaseIsAUsageError() async throws {
        _ = try await Self.failing([Self.track, "--from", "2026-06-01T09:00:00Z", "--format", "gpx", "-o", "DIR/out.gpx"], status: 64, expecting: "go with --db")
    }

    @Test func aMissingDatabaseIsNamed() async throws {
        _ = try await Self.failing(["--db", "DIR/none.sqlite", "--format", "gpx", "-o", "DIR/out.gpx"], status: 1, expecting: "no database at")
    }

    @Test(arguments: [[String](), ["Tracks/lakeside-ride.gpx", "--db", "x.sqlite"]])
    func exactlyOneInputIsNeeded(inputs: [String]) async throws {
        _ = try await Self.failing(inputs + ["--format", "gpx", "-o", "DIR/out.gpx"], status: 64, expecting: "--db")
    }

    @Test func anOutputInAMissingFolderIsRefusedBeforeAnyWork() async throws {
        _ = try await Self.failing([Self.track, "--format", "gpx", "-o", "DIR/missing/out.gpx"], status: 1, expecting: "does not exist")
    }

    @Test func anOutputThatIsAFolderIsRefused() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("out.gpx"), withIntermediateDirectories: false)
        let result = try await runWaymark(["export", Self.track, "--format", "gpx", "-o", directory.path("out.gpx")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is a folder"), "\(result.stderr)")
    }

    @Test func aPictureCannotGoToStandardOutput() async throws {
        _ = try await Self.failing([Self.track, "--format", "png", "-o", "-"], status: 1, expecting: "cannot go to standard output")
    }

    @Test func aBadWidthIsAUsageError() async throws {
        _ = try await Self.failing([Self.track, "--format", "png", "--width", "20", "-o", "DIR/out.png"], status: 64, expecting: "--width")
    }

    @Test func badRegionsAreReportedWithTheirLocation() async throws {
        let source = try TemporaryDirectory()
        let regions = try source.write("bad.geojson", "{\"type\": \"FeatureCollection\",\n \"features\": [ {,} ]}")
        _ = try await Self.failing([Self.track, "--regions", regions, "--format", "geojson", "-o", "DIR/out.geojson"], status: 1, expecting: "bad.geojson:2:")
    }

    /// A failure after thousands of points were written leaves the old file exactly as it was.
    @Test func aFailedExportLeavesTheExistingFileAlone() async throws {
        let directory = try TemporaryDirectory()
        let good = try String(contentsOfFile: Self.track, encoding: .utf8)
        let truncated = try directory.write("cut.gpx", String(good.prefix(good.count * 3 / 4)))
        let output = try directory.write("out.geojson", "old contents\n")
        let result = try await runWaymark(["export", truncated, "--format", "geojson", "-o", output])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cut.gpx:"), "\(result.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old contents\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["cut.gpx", "out.geojson"])
    }

    @Test func anEmptyTrackHasNothingToExport() async throws {
        let source = try TemporaryDirectory()
        let empty = try source.write("empty.gpx", "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\"><wpt lat=\"1\" lon=\"2\"/></gpx>\n")
        _ = try await Self.failing([empty, "--format", "svg", "-o", "DIR/out.svg"], status: 1, expecting: "no track points")
    }
}
