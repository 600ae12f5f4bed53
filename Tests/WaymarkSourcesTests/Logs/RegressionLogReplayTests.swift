import Foundation
import Testing
import WaymarkCore
@testable import WaymarkSources
import WaymarkTestSupport

/// gpsd's own regression logs, read by Waymark's NMEA reader without gpsd, give the fixes gpsd
/// 3.22 computed for them (their `.chk` files); and the `.chk` files themselves, read as gpsd
/// JSON logs (they are `gpspipe -r -w` output), give the same fixes again.
struct RegressionLogReplayTests {
    /// Every text-NMEA log of the shared set (bu303-moving is SiRF binary, not NMEA 0183).
    static let logs = [
        "beidou-bd.log", "blumax-gps009.log", "bt451.log", "bu353-glonass.log", "bundg_zeus_9.log",
        "garmin-geko201.log", "haicom-305N.log", "humminbird-M37.log", "myguide-3100.log", "nl2008u.log",
        "nmea-fuzzy-cases.log", "rx210.log", "sl869.log", "tr737A+.log", "ublox-8.log", "ublox-lea-4h.log",
        "ublox-neo-m9n-nmea.log", "ublox-zed-f9p-nmea.log",
    ]

    static func log(_ name: String) -> String { ProjectPaths.sharedData("nmea/gpsd-3.22/\(name)").path }

    /// gpsd 3.22 moves NMEA dates before 2017 on by 1024 GPS weeks (its week-rollover guard;
    /// the data's MANIFEST). The newest log of the set is from 2020, so a `.chk` time after 2021
    /// is such a moved date.
    static func undoWeekRollover(_ time: Timestamp) -> Timestamp {
        let moved = Timestamp(rfc3339: "2021-01-01T00:00:00Z")!
        return time > moved ? time.adding(seconds: -1024 * 7 * 86_400) : time
    }

    /// gpsd's fixes for `name`: per time, the last TPV with a solution (gpsd reports an epoch
    /// in several TPVs as its sentences arrive, each more complete).
    static func expectedFixes(_ name: String) throws -> [ExpectedTPV] {
        var fixes: [ExpectedTPV] = []
        for report in try GpsdCheckFile.tpvReports(at: URL(fileURLWithPath: log(name + ".chk"))) where report.isFix {
            guard var time = report.time else { continue }
            time = undoWeekRollover(time)
            var report = report
            report.time = time
            if fixes.last?.time == time { fixes.removeLast() }
            fixes.append(report)
        }
        return fixes
    }

    static func read(_ source: inout some FixSource) throws -> [Fix] {
        var fixes: [Fix] = []
        while let fix = try source.next() { fixes.append(fix) }
        return fixes
    }

    /// Metres by which Waymark's position or altitude may differ from gpsd's in a log where
    /// the receiver's own sentences disagree. bundg_zeus_9 is a chartplotter relaying another
    /// receiver: for about 40 of its 148 seconds its GGA gives a position up to 3 m and an
    /// altitude 4 m from its RMC of the same second; gpsd keeps RMC's there and the last
    /// sentence's elsewhere, Waymark always the last sentence's.
    static let disagreement: [String: Double] = ["bundg_zeus_9.log": 5]

    /// gpsd's fixes, each found in `fixes` at the same time and place; and Waymark's fixes gpsd
    /// did not give, only where gpsd reports nothing by design: within the first 5 seconds of a
    /// stretch (the log's start, or where a spliced log's time goes back), while gpsd learns
    /// which sentence ends the receiver's cycle, and the last epoch of a stretch (gpsd reports
    /// an epoch when the next begins).
    static func compare(_ fixes: [Fix], with expected: [ExpectedTPV], _ name: String, skipping skipped: Set<Timestamp> = []) {
        let timed = fixes.filter { $0.time != nil }
        let tolerance = disagreement[name] ?? 0.001
        // Walk both in order (a spliced log repeats times): each gpsd fix is matched with the
        // next of Waymark's at its time; Waymark's passed over are extra.
        var matched = Set<Int>()
        var next = 0
        var withCourse = 0
        var coursesCompared = 0
        for report in expected where !skipped.contains(report.time!) {
            let at = "\(name) at \(report.time!.rfc3339)"
            guard let index = timed[next...].firstIndex(where: { $0.time == report.time }) else {
                Issue.record("\(at): gpsd has a fix, Waymark none")
                continue
            }
            matched.insert(index)
            next = index + 1
            let fix = timed[index]
            let place = Coordinate(latitude: report.latitude!, longitude: report.longitude!)
            #expect(Geodesic.distance(fix.coordinate, place) <= tolerance, "\(at): position \(fix.coordinate) vs \(place)")
            if let altitude = report.altitude, let ours = fix.altitude {
                #expect(abs(ours - altitude) <= tolerance, "\(at): altitude \(ours) vs \(altitude)")
            }
            // Where an epoch's sentences give no course, gpsd derives speed and course from
            // positions; Waymark does not. So they are compared where Waymark has them, and it
            // must have them for nearly all of gpsd's fixes with a course.
            if report.track != nil { withCourse += 1 }
            if let track = report.track, let course = fix.course {
                coursesCompared += 1
                #expect(abs(course - track) < 1e-3, "\(at): course \(course) vs \(track)")
                if let speed = report.speed {
                    #expect(fix.speed.map { abs($0 - speed) < 1e-3 } == true, "\(at): speed \(String(describing: fix.speed)) vs \(speed)")
                }
            }
        }
        #expect(Double(coursesCompared) >= 0.9 * Double(withCourse), "\(name): courses for \(coursesCompared) of \(withCourse)")
        var stretchStart = timed.first?.time
        for (index, fix) in timed.enumerated() {
            let time = fix.time!
            if index > 0, time < timed[index - 1].time! { stretchStart = time }
            guard !matched.contains(index), !skipped.contains(time) else { continue }
            let starting = time.seconds(since: stretchStart!) <= 5
            let ending = index == timed.count - 1 || timed[index + 1].time! < time
            #expect(starting || ending, "\(name) at \(time.rfc3339): a fix gpsd did not give, mid-stretch")
        }
    }

    @Test(arguments: logs)
    func nmeaLogGivesGpsdsFixes(name: String) throws {
        var source = try NMEAFixSource(path: Self.log(name))
        Self.compare(try Self.read(&source), with: try Self.expectedFixes(name), name, skipping: Self.misdated)
    }

    /// bt451 is two excerpts spliced, the second 52 minutes earlier; its ZDA says 9 December
    /// right before the splice's first fix, and gpsd stamps that one fix 10 December (a day
    /// rolled over). Waymark keeps the ZDA's date; the fix is checked at it.
    static let misdated: Set<Timestamp> = [Timestamp(rfc3339: "2009-12-10T14:33:06Z")!]

    @Test func theSplicedLogKeepsItsDate() throws {
        var source = try NMEAFixSource(path: Self.log("bt451.log"))
        let times = try Self.read(&source).compactMap(\.time).map(\.rfc3339)
        #expect(times.contains("2009-12-09T14:33:06Z"))
        #expect(!times.contains { $0.hasPrefix("2009-12-10") })
    }
}
