import Foundation
import Testing
import WaymarkCore
import WaymarkImport

/// GPX, NMEA and gpsd logs through the readers `waymark replay` uses, as history: timed fixes
/// only, the same errors as import errors.
@Suite struct TrackAdapterTests {
    typealias S = XMLTrackSamples

    // MARK: GPX

    @Test(.enabled(if: XMLTrackSamples.hasSharedData))
    func aGarminRideGivesEveryPoint() throws {
        var reader = try GPXHistoryReader(path: try #require(S.shared("gpx/bikeride.gpx")), name: "bikeride.gpx")
        let (fixes, error) = S.readAll(&reader)
        #expect(error == nil)
        #expect(fixes.count == 8234)
        #expect(reader.untimedCount == 0)
        #expect(fixes.first == Fix(
            time: S.time("2019-10-22T14:36:00Z"),
            coordinate: Coordinate(latitude: Double("35.7804112695157527923583984375")!, longitude: Double("-121.329866945743560791015625")!),
            altitude: Double("91.8000030517578125")!))
        #expect(fixes.last?.time == S.time("2019-10-23T01:27:08Z"))
        #expect(fixes.last?.coordinate == Coordinate(
            latitude: Double("36.56096150167286396026611328125")!, longitude: Double("-121.91585308872163295745849609375")!))
        #expect(fixes.last?.altitude == 117)
    }

    @Test(.enabled(if: XMLTrackSamples.hasSharedData))
    func untimedPointsAreSkippedAndCounted() throws {
        var reader = try GPXHistoryReader(path: try #require(S.shared("gpx/cerknicko-without-times.gpx")), name: "c.gpx")
        let (fixes, error) = S.readAll(&reader)
        #expect(error == nil)
        #expect(fixes.count == 5)
        #expect(fixes.allSatisfy { $0.time != nil })
        #expect(reader.untimedCount == 291)
        #expect(reader.skippedWaypoints == 7)
    }

    @Test(.enabled(if: XMLTrackSamples.hasSharedData))
    func aFileWithoutOneTimeIsRefused() throws {
        var reader = try GPXHistoryReader(path: try #require(S.shared("gpx/testneighboursearch.gpx")), name: "routes.gpx")
        let (fixes, error) = S.readAll(&reader)
        #expect(fixes.isEmpty)
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("41138 track or route points, none with a <time>") == true)
        #expect(error?.file == "routes.gpx")
    }

    @Test func aRouteWithoutTimesIsRefused() {
        let route = """
            <gpx version="1.1" creator="planner"><rte><rtept lat="46" lon="14"/><rtept lat="46.1" lon="14.1"/></rte></gpx>
            """
        var reader = GPXHistoryReader(bytes: Array(route.utf8), name: "plan.gpx")
        let (_, error) = S.readAll(&reader)
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("2 track or route points") == true)
        #expect(throws: ImportError.self) { try reader.next() }
    }

    @Test func gpxErrorsKeepTheirLineAndColumnUnderTheGivenName() {
        let gpx = """
            <gpx version="1.1">
              <trk><trkseg>
                <trkpt lat="46" lon="14"><time>2020-01-01T00:00:00Z</time></trkpt>
                <trkpt lat="46" lon="14"><time>2020-01-01T00:00:01Z</time></trkpt>
                <trkpt lat="46.x" lon="14"><time>2020-01-01T00:00:02Z</time></trkpt>
            """
        var reader = GPXHistoryReader(bytes: Array(gpx.utf8), name: "a.zip:b.gpx")
        let (fixes, error) = S.readAll(&reader)
        #expect(fixes.count == 2)
        #expect(error?.code == .invalidValue)
        #expect(error?.position == .line(5, column: 17))
        #expect(error?.description.hasPrefix("a.zip:b.gpx:5:17: ") == true)

        var truncated = GPXHistoryReader(bytes: Array(gpx.utf8.prefix(gpx.utf8.count - 60)), name: "t.gpx")
        let cut = S.readAll(&truncated)
        #expect(cut.fixes.count == 2)
        #expect(cut.error?.code == .truncated)

        var malformed = GPXHistoryReader(bytes: Array("<gpx><trk></gpx>".utf8), name: "m.gpx")
        let bad = S.readAll(&malformed)
        #expect(bad.error?.code == .syntax)
        #expect(bad.error?.position == .line(1, column: 11))
    }

    @Test func aMissingGPXFileIsAnIOError() {
        do {
            _ = try GPXHistoryReader(path: "/nonexistent.gpx", name: "n.gpx")
            Issue.record("opened a missing file")
        } catch {
            #expect(error.code == .io)
            #expect(error.file == "n.gpx")
        }
    }

    // MARK: NMEA and gpsd logs

    static func gpsdLog(_ name: String) -> String? { S.shared("nmea/gpsd-3.22/\(name)") }

    /// gpsd's own fixes for a log: per time, the last TPV with a solution.
    static func gpsdFixTimes(_ chk: String) throws -> [Timestamp?] {
        var times: [Timestamp?] = []
        for line in try String(contentsOfFile: chk, encoding: .utf8).split(whereSeparator: \.isNewline) where line.hasPrefix("{") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard object["class"] as? String == "TPV", (object["mode"] as? Int ?? 0) >= 2 else { continue }
            let time = (object["time"] as? String).flatMap { Timestamp(rfc3339: $0) }
            if times.last == time { times.removeLast() }
            times.append(time)
        }
        return times
    }

    @Test(.enabled(if: XMLTrackSamples.hasSharedData))
    func anNMEALogGivesGpsdsFixes() throws {
        // A 2017 log: gpsd 3.22 moves no date of it by 1024 weeks, so its times are the log's.
        let log = try #require(Self.gpsdLog("ublox-8.log"))
        var reader = try NMEAHistoryReader(path: log, name: "ublox-8.log")
        let (fixes, error) = S.readAll(&reader)
        #expect(error == nil)
        let expected = try Self.gpsdFixTimes(log + ".chk")
        #expect(expected.count == 72)
        // gpsd reports an epoch when the next begins, so it never reports the log's last one.
        #expect(fixes.dropLast().map(\.time) == expected)
        #expect(fixes.last?.time == S.time("2017-01-10T00:10:53Z"))
        #expect(reader.fixCount == 73)
        #expect(reader.untimedCount == 0)
    }

    @Test(.enabled(if: XMLTrackSamples.hasSharedData))
    func aGpsdJSONLogGivesItsTimedFixes() throws {
        let chk = try #require(Self.gpsdLog("ublox-8.log.chk"))
        var reader = try GpsdLogHistoryReader(path: chk, name: "ublox-8.json")
        let (fixes, error) = S.readAll(&reader)
        #expect(error == nil)
        #expect(fixes.map(\.time) == (try Self.gpsdFixTimes(chk)))
        #expect(fixes.first?.time == S.time("2017-01-10T00:09:41Z"))
    }

    @Test(.enabled(if: XMLTrackSamples.hasSharedData))
    func aLogThatNeverHadAFixIsRefused() throws {
        var nmea = try NMEAHistoryReader(path: try #require(Self.gpsdLog("garmin-geko201.log")), name: "geko.log")
        let a = S.readAll(&nmea)
        #expect(a.fixes.isEmpty)
        #expect(a.error?.code == .unsupported)
        // gpsd reports one 2D solution with no time for this log: a fix, but not history.
        var json = try GpsdLogHistoryReader(path: try #require(Self.gpsdLog("garmin-geko201.log.chk")), name: "geko.json")
        let b = S.readAll(&json)
        #expect(b.fixes.isEmpty)
        #expect(b.error?.code == .unsupported)
        #expect(b.error?.message.hasPrefix("no fix has a time") == true, "\(String(describing: b.error))")
        #expect(json.untimedCount > 0)
    }

    @Test func ggaWithoutADateIsRefused() throws {
        let file = try Self.temporary("""
            $GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47
            $GPGGA,123520,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*4D

            """)
        defer { try? FileManager.default.removeItem(atPath: file) }
        var reader = try NMEAHistoryReader(path: file, name: "gga.nmea")
        let (fixes, error) = S.readAll(&reader)
        #expect(fixes.isEmpty)
        #expect(error?.code == .unsupported)
        #expect(error?.message.contains("no fix has a date: 2 fixes with a time of day only") == true)
        #expect(reader.untimedCount == 2)
    }

    @Test func nmeaErrorsKeepTheirLineAndColumn() throws {
        let file = try Self.temporary("""
            $GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A
            $GPRMC,123520,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*60
            $GPRMC,123521,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*00

            """)
        defer { try? FileManager.default.removeItem(atPath: file) }
        var reader = try NMEAHistoryReader(path: file, name: "bad.nmea")
        let (fixes, error) = S.readAll(&reader)
        #expect(fixes.count == 1)
        #expect(error?.code == .syntax)
        if case .line(let line, _) = error?.position { #expect(line == 3) } else { Issue.record("no line") }
        #expect(error?.file == "bad.nmea")
    }

    @Test func gpsdLogErrorsKeepTheirLineAndColumn() throws {
        let file = try Self.temporary("""
            {"class":"TPV","mode":2,"time":"2020-01-01T00:00:00.000Z","lat":46.0,"lon":14.0}
            {"class":"TPV","mode":2,"time":"2020-01-01T00:00:01.000Z","lat":46.0,"lon":14.0
            """)
        defer { try? FileManager.default.removeItem(atPath: file) }
        var reader = try GpsdLogHistoryReader(path: file, name: "bad.json")
        let (fixes, error) = S.readAll(&reader)
        #expect(error?.code == .syntax)
        if case .line(let line, _) = error?.position { #expect(line == 2) } else { Issue.record("no line") }
        #expect(fixes.count <= 1)
    }

    @Test func missingLogsAreIOErrors() {
        #expect(throws: ImportError.self) { try NMEAHistoryReader(path: "/nonexistent.nmea", name: "n") }
        do {
            _ = try GpsdLogHistoryReader(path: "/nonexistent.json", name: "g.json")
        } catch {
            #expect(error.code == .io)
            #expect(error.position == .none)
        }
    }

    static func temporary(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID())").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
