import Foundation
import Testing
import WaymarkTestSupport

/// `waymark replay` and `serve --replay` play what receivers record — NMEA 0183 logs and gpsd
/// JSON logs — through the one pipeline, and refuse a bad line with its place.
@Suite struct ReceiverLogReplayTests {
    static func log(_ name: String) -> String { ProjectPaths.sharedData("nmea/gpsd-3.22/\(name)").path }

    /// A moving NMEA log (two spliced drives, 1.96 km) and gpsd's JSON of it: replay and the
    /// daemon give the same events, and the NMEA log is told from GPX by its content.
    @Test(arguments: ["bt451.log", "bt451.log.chk", "haicom-305N.log"])
    func replayAndServeAgree(_ name: String) async throws {
        let directory = try TemporaryDirectory()
        let regions = directory.path("regions.geojson")
        let generated = try await runWaymark([
            "regions", "generate", "--along", Self.log(name), "--per-km", "20", "--min-radius", "10", "--max-radius", "40",
            "--seed", "3", "-o", regions,
        ])
        #expect(generated.status == 0, "\(generated.stderr)")
        let (replayed, served) = try await ReplayServeAgreementTests.bothWays(track: Self.log(name), regions: regions, in: directory)
        // gpsd's JSON carries its error estimates (eph of 20 m and more here), which the
        // standard updates' default accuracy keeps out; NMEA without GST carries none.
        if name.hasSuffix(".log") { #expect(replayed.contains { $0.hasPrefix("{\"kind\":\"location\"") }) }
        // The first place comes from the fix that establishes the regions, like the state
        // record left out above: the daemon stamps an untimed fix with its arrival, a replay
        // keeps it untimed (docs/semantics.md §2.3).
        func establishing(_ record: String) -> Bool { record.hasPrefix("{\"kind\":\"place\"") && record.contains("\"previous\":null") }
        #expect(ReplayServeAgreementTests.difference(served.filter { !establishing($0) }, replayed.filter { !establishing($0) }) == nil)
    }

    @Test func theSummaryCountsTheLogsFixes() async throws {
        let result = try await runWaymark(["replay", Self.log("ublox-neo-m9n-nmea.log"), "--fast"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines.last?.hasPrefix("{\"kind\":\"summary\",\"fixes\":61,\"untimedFixes\":0,") == true, "\(result.stdout)")
    }

    @Test func theFormatCanBeNamed() async throws {
        let result = try await runWaymark(["replay", "--track-format", "gpsd", Self.log("ublox-lea-4h.log"), "--fast"])
        #expect(result.status == 1)
        // Read as gpsd JSON, the NMEA lines are the raw copies gpspipe -r adds: skipped, and
        // then there is nothing.
        #expect(result.stderr.contains("ublox-lea-4h.log:118:1: no gpsd report (a line starting with {) in the file"), "\(result.stderr)")
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var file: String
        var lines: [String]
        var expected: String
        var testDescription: String { name }
    }

    static let cases = [
        Case(
            name: "NMEA checksum", file: "ride.nmea",
            lines: ["$GPRMC,081836,A,3751.65,S,14507.36,E,000.0,360.0,130998,011.3,E*62", "$GPRMC,081837,A,3751.65,S,14507.36,E,000.0,360.0,130998,011.3,E*00"],
            expected: "ride.nmea:2:65: checksum 00 does not match the sentence's 63"),
        Case(
            name: "NMEA field", file: "ride.nmea",
            lines: ["$GPRMC,081836,A,3751.65,S,14507.36,E,000.0,360.0,130998,011.3,E*62", "$GPRMC,081837,A,37x1.65,S,14507.36,E,000.0,360.0,130998,011.3,E"],
            expected: "ride.nmea:2:17: RMC latitude '37x1.65' is not ddmm.mmmm"),
        Case(
            name: "gpsd JSON", file: "ride.json",
            lines: [#"{"class":"VERSION","release":"3.22"}"#, #"{"class":"TPV","mode":3,"lat":47.5,"lon":8.5,}"#],
            expected: "ride.json:2:"),
    ]

    @Test(arguments: cases)
    func aBadLineIsLocatedInReplay(_ testCase: Case) async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(testCase.file, testCase.lines.joined(separator: "\n") + "\n")
        let result = try await runWaymark(["replay", path, "--fast"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(testCase.expected), "\(result.stderr)")
        #expect(!result.stdout.contains("summary"))
    }

    @Test(arguments: cases)
    func aBadLineStopsTheDaemonsReplayWithItsPlace(_ testCase: Case) async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(testCase.file, testCase.lines.joined(separator: "\n") + "\n")
        let result = try await runWaymark([
            "serve", "--replay", path, "--fast", "--exit-after-replay", "--db", directory.path("w.sqlite"),
            "--socket", directory.path("api.sock"),
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains(testCase.expected), "\(result.stderr)")
    }
}
