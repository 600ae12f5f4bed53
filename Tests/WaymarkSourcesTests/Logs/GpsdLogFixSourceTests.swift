import Foundation
import Testing
import WaymarkCore
@testable import WaymarkSources
import WaymarkTestSupport

/// gpsd JSON logs: gpsd's own regression output read back, a real `gpspipe -w` recording of a
/// real gpsd, and each way a line is refused.
struct GpsdLogFixSourceTests {
    static func read(_ path: String) throws -> [Fix] {
        var source = try GpsdLogFixSource(path: path)
        var fixes: [Fix] = []
        while let fix = try source.next() { fixes.append(fix) }
        return fixes
    }

    static func read(lines: [String]) throws -> [Fix] {
        let folder = try TemporaryDirectory()
        let path = try folder.write("gpsd.json", lines.joined(separator: "\n") + "\n")
        return try read(path)
    }

    static func error(_ lines: [String]) throws -> (code: TrackLogError.Code, text: String) {
        do {
            _ = try read(lines: lines)
        } catch let error as TrackLogError {
            return (error.code, "\(error.location.line):\(error.location.column): \(error.message)")
        }
        Issue.record("no error")
        return (.noData, "")
    }

    /// A `.chk` file is gpsd's JSON with the NMEA it read interleaved (`gpspipe -r -w`): read
    /// as a gpsd log, it gives gpsd's fixes, one per time (gpsd's last report for it).
    @Test(arguments: RegressionLogReplayTests.logs + ["bu303-moving.log"])
    func gpsdsRegressionOutputReplays(name: String) throws {
        let path = RegressionLogReplayTests.log(name + ".chk")
        var expected: [ExpectedTPV] = []
        for report in try GpsdCheckFile.tpvReports(at: URL(fileURLWithPath: path)) where report.isFix && report.time != nil {
            if expected.last?.time == report.time { expected.removeLast() }
            expected.append(report)
        }
        let fixes = try Self.read(path).filter { $0.time != nil }
        #expect(fixes.map(\.time) == expected.map(\.time))
        for (fix, report) in zip(fixes, expected) {
            #expect(fix.coordinate == Coordinate(latitude: report.latitude!, longitude: report.longitude!))
            #expect(fix.altitude == report.altitude)
            #expect(fix.speed == report.speed)
            #expect(fix.course == report.track)
            #expect(fix.horizontalAccuracy == report.eph)
        }
    }

    /// The NMEA reader and gpsd agree on a log; so does gpsd's JSON of it, read back.
    @Test func theNMEAAndItsGpsdJSONGiveTheSamePlaces() throws {
        var nmea = try NMEAFixSource(path: RegressionLogReplayTests.log("ublox-neo-m9n-nmea.log"))
        var fromNMEA: [Fix] = []
        while let fix = try nmea.next() { fromNMEA.append(fix) }
        let fromJSON = try Self.read(RegressionLogReplayTests.log("ublox-neo-m9n-nmea.log.chk"))
        #expect(fromJSON.count == 61)
        #expect(fromJSON.map(\.time) == Array(fromNMEA.map(\.time)))
        for (a, b) in zip(fromNMEA, fromJSON) {
            #expect(Geodesic.distance(a.coordinate, b.coordinate) < 0.001)
        }
    }

    @Test func skyReportsCompleteTheFixes() throws {
        let fixes = try Self.read(lines: [
            #"{"class":"VERSION","release":"3.22"}"#,
            #"{"class":"SKY","hdop":0.9,"vdop":1.4,"pdop":1.7,"uSat":7,"satellites":[]}"#,
            #"{"class":"TPV","mode":3,"time":"2026-06-01T08:00:00.000Z","lat":47.5,"lon":8.5,"altMSL":420.5,"eph":4.5}"#,
            #"{"class":"TPV","mode":1,"time":"2026-06-01T08:00:01.000Z"}"#,
        ])
        #expect(fixes.count == 1)
        #expect(fixes.first?.hdop == 0.9)
        #expect(fixes.first?.altitude == 420.5)
        #expect(fixes.first?.horizontalAccuracy == 4.5)
    }

    @Test func aLineThatIsNotJSONIsLocated() throws {
        let result = try Self.error([#"{"class":"TPV","mode":3,"lat":47.5,"lon":8.5"#])
        #expect(result.code == .badJSON)
        #expect(result.text.hasPrefix("1:"))
        let text = try Self.error([#"{"class":"VERSION"}"#, "hello"])
        #expect(text.code == .badJSON)
        #expect(text.text.hasPrefix("2:1: "))
    }

    @Test func aReportNotInGpsdsShapeIsRefused() throws {
        let result = try Self.error([#"{"mode":3,"class":"TPV","lat":47.5,"lon":8.5}"#])
        #expect(result.code == .badJSON)
        #expect(result.text == #"1:1: a TPV report must have "class" first and only once, as gpsd writes it"#)
    }

    @Test func aLogWithoutReportsIsAnError() throws {
        #expect(try Self.error(["# nothing", "$GPGSA,A,1,,,,,,,,,,,,,,,*1E"]).code == .noData)
    }

    /// A real gpsd serving a log through gpsfake, recorded with `gpspipe -w` as a user would,
    /// replays to the fixes gpsd computed.
    @Test func aGpspipeRecordingReplays() async throws {
        let log = RegressionLogReplayTests.log("ublox-lea-4h.log")
        let harness = try GpsdHarness(log: URL(fileURLWithPath: log))
        defer { harness.shutdown() }
        try await harness.start()
        let folder = try TemporaryDirectory()
        // gpsd opens the feed when gpspipe watches, so gpspipe sees every report from the first;
        // it stops after 30 lines (VERSION, DEVICES, WATCH, DEVICE, then 26 of the log's 32
        // reports), so it ends however gpsd paces them.
        let result = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/gpspipe"), ["-w", "-n", "30", "localhost:\(harness.port)"])
        #expect(result.status == 0, "\(result.stderr)")
        let recording = try folder.write("gpspipe.json", result.stdout)
        let all = try RegressionLogReplayTests.expectedFixes("ublox-lea-4h.log")
        let fixes = try Self.read(recording).filter { $0.time != nil }
        #expect(fixes.count >= 6)
        let expected = all.prefix(fixes.count)
        #expect(fixes.map { RegressionLogReplayTests.undoWeekRollover($0.time!) } == expected.map(\.time))
        for (fix, report) in zip(fixes, expected) {
            #expect(Geodesic.distance(fix.coordinate, Coordinate(latitude: report.latitude!, longitude: report.longitude!)) < 0.001)
        }
    }
}
