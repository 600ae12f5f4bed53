import Foundation
import Testing
import WaymarkTestSupport

/// Accuracy reaches the pipeline from every replayed format (issue 38, docs/replay.md): the same
/// three fixes, stated 5 m, 150 m and 10 m accurate as each format states it (GPX `hdop` × 5 m and
/// an accuracy extension, NMEA GST, gpsd's `eph`), give the same standard updates: the 150 m fix
/// is dropped as inaccurate by `--desired-accuracy 10`, and the others carry their accuracy.
@Suite struct AccuracyReplayTests {
    static let times = ["2024-01-01T00:00:00Z", "2024-01-01T00:00:10Z", "2024-01-01T00:00:20Z"]
    static let latitudes = ["46.0000", "46.0001", "46.0002"]

    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="46.0000" lon="14.0"><time>\(times[0])</time><hdop>1.0</hdop></trkpt>
        <trkpt lat="46.0001" lon="14.0"><time>\(times[1])</time><hdop>30</hdop></trkpt>
        <trkpt lat="46.0002" lon="14.0"><time>\(times[2])</time><hdop>0.7</hdop><extensions><tpx:extras><tpx:hacc>10</tpx:hacc></tpx:extras></extensions></trkpt>
        </trkseg></trk></gpx>
        """

    static func sentence(_ body: String) -> String {
        "$" + body + "*" + String(format: "%02X", body.utf8.reduce(UInt8(0), ^))
    }

    /// RMC for the position and date, GST for σ latitude and σ longitude: √(3² + 4²) = 5 m, …
    static let nmea = zip(["000000", "000010", "000020"], zip(["4600.0000", "4600.0060", "4600.0120"], ["3.0,4.0", "90.0,120.0", "6.0,8.0"]))
        .flatMap { time, rest in
            [
                sentence("GPRMC,\(time),A,\(rest.0),N,01400.0000,E,0.0,0.0,010124,,,A"),
                sentence("GPGST,\(time),1.0,1.0,1.0,0.0,\(rest.1),2.0"),
            ]
        }.joined(separator: "\n") + "\n"

    static let gpsd = zip(times, zip(["46.0", "46.0001", "46.0002"], ["5", "150", "10"])).map { time, rest in
        #"{"class":"TPV","mode":2,"time":"\#(time)","lat":\#(rest.0),"lon":14.0,"eph":\#(rest.1)}"#
    }.joined(separator: "\n") + "\n"

    @Test(arguments: [("track.gpx", gpx), ("track.nmea", nmea), ("track.json", gpsd)])
    func everyFormatsAccuracyReachesThePipeline(_ name: String, _ contents: String) async throws {
        let directory = try TemporaryDirectory()
        let track = try directory.write(name, contents)
        let result = try await runWaymark(["replay", track, "--fast", "--standard", "--desired-accuracy", "10"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = result.stdoutLines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let locations = records.filter { $0["kind"] as? String == "location" }
        #expect(locations.compactMap { $0["time"] as? String } == [Self.times[0], Self.times[2]], "\(result.stdout)")
        #expect(locations.compactMap { $0["horizontalAccuracy"] as? Double } == [5, 10], "\(result.stdout)")
        let summary = try #require(records.last)
        #expect((summary["dropped"] as? [String: Int])?["inaccurate"] == 1, "\(result.stdout)")
    }
}
