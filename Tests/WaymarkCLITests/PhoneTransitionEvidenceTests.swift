import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// A phone's own transitions as evidence in Waymark's monitoring (issue 43, item 2;
/// docs/devices.md, "The phone's transitions as evidence"), with a real daemon fed OwnTracks
/// messages over HTTP: a phone in significant mode sends one fix far away, then only its
/// geofencing's `transition` for each region, then fixes far away again.
@Suite struct PhoneTransitionEvidenceTests {
    /// A 200 m circle the phone watches as it is; a 50 m circle and a square it holds only as
    /// larger trigger circles; far off, the rig's handlers' plaza.
    static let regions = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"plaza","geometry":{"type":"Point","coordinates":[8.5,47.5]},"properties":{"radius":100}},
        {"type":"Feature","id":"park","geometry":{"type":"Point","coordinates":[8.0,47.0]},"properties":{"radius":200}},
        {"type":"Feature","id":"kiosk","geometry":{"type":"Point","coordinates":[8.01,47.0]},"properties":{"radius":50}},
        {"type":"Feature","id":"yard","geometry":{"type":"Polygon","coordinates":[[[8.019,46.999],[8.021,46.999],[8.021,47.001],[8.019,47.001],[8.019,46.999]]]},"properties":{}}]}
        """

    static func transition(_ event: String, rid: String, latitude: Double = 47.0, longitude: Double, at seconds: Int) -> String {
        #"{"_type":"transition","event":"\#(event)","desc":"\#(rid)","rid":"\#(rid)","lat":\#(latitude),"lon":\#(longitude),"tst":\#(seconds),"wtst":1700000000,"acc":12,"t":"c","tid":"ph"}"#
    }

    static func location(latitude: Double, at seconds: Int, accuracy: Int = 30) -> String {
        #"{"_type":"location","lat":\#(latitude),"lon":8.0,"tst":\#(seconds),"acc":\#(accuracy),"t":"u","m":1,"tid":"ph"}"#
    }

    @Test func thePhonesEntryOfAWatchedCircleIsWaymarksOwnAndNoOther() async throws {
        let rig = try await NetworkDevicesTests.Rig.start(regions: Self.regions)
        try await rig.daemon.whileRunning {
            let start = Int(Date().timeIntervalSince1970) - 3600
            let bearer = ["Authorization: Bearer \(rig.phoneSecret)"]
            // 5.5 km north of everything; then the phone's geofencing alone sees it enter each
            // region; then, 15 minutes on, two fixes far away again (significant mode's pace).
            let messages = [
                Self.location(latitude: 47.05, at: start),
                Self.transition("enter", rid: "park", longitude: 8.0005, at: start + 300),
                Self.transition("enter", rid: "kiosk", longitude: 8.01, at: start + 320),
                Self.transition("enter", rid: "yard", longitude: 8.02, at: start + 340),
                Self.location(latitude: 47.05, at: start + 900, accuracy: 65),
                Self.location(latitude: 47.051, at: start + 960),
            ]
            for message in messages {
                let sent = try await rig.ownTracks(message, bearer)
                #expect(sent.status == 200, "\(sent.body)")
            }
            let events = try await rig.history(["--device", "phone", "--kind", "event"])
            let waymark = events.filter { $0.hasPrefix(#"{"kind":"region""#) }
            #expect(waymark.count == 2, "\(events)")
            let enter = try #require(waymark.first)
            #expect(
                enter.hasPrefix(
                    #"{"kind":"region","transition":"enter","region":"park","time":"\#(Timestamp(secondsSince1970: Double(start + 300)).rfc3339)","latitude":47,"longitude":8.0005,"#),
                "\(enter)")
            #expect(enter.contains(#""evidence":"phone""#), "\(enter)")
            let exit = try #require(waymark.last)
            #expect(
                exit.hasPrefix(#"{"kind":"region","transition":"exit","region":"park","time":"\#(Timestamp(secondsSince1970: Double(start + 900)).rfc3339)""#),
                "\(exit)")
            #expect(!exit.contains("evidence"), "the exit is the fixes' own: \(exit)")
            // The phone's own reports are recorded as they were, for all three regions.
            #expect(events.filter { $0.hasPrefix(#"{"kind":"reportedRegion","transition":"enter""#) }.count == 3, "\(events)")

            // `waymark explain` says where the entry came from, and reproduces it.
            let listed = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/sqlite3"),
                [rig.db, "SELECT id FROM events WHERE kind = 'region' AND region = 'park' AND transition = 'enter'"])
            let id = try #require(Int(listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(listed.stdout)\(listed.stderr)")
            let config = try rig.directory.write("none.yaml", "")
            let explained = try await runWaymark(["explain", String(id), "--db", rig.db, "--config", config])
            #expect(explained.status == 0, "\(explained.stderr)")
            #expect(explained.stdout.contains("rule: phone: the phone's own report"), "\(explained.stdout)")
            #expect(explained.stdout.contains("reproduced: yes"), "\(explained.stdout)")

            // Side by side, the phone's park entry agrees with Waymark's, counted once; the
            // regions it holds as trigger circles are the phone's alone.
            let from = Timestamp(secondsSince1970: Double(start - 60)).rfc3339
            let to = Timestamp(secondsSince1970: Double(start + 1200)).rfc3339
            let sides = try await runWaymark(["explain", "--device", "phone", "--from", from, "--to", to, "--db", rig.db])
            #expect(sides.stdoutLines.last?.contains(#""agreed":1,"#) == true, "\(sides.stdout)")
            #expect(sides.stdoutLines.filter { $0.contains(#""region":"park""#) }.allSatisfy { !$0.contains(#""side":"phone""#) }, "\(sides.stdout)")
            let metrics = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--unix-socket", rig.directory.path("api.sock"), "http://localhost/metrics"])
            #expect(
                metrics.stdoutLines.contains(#"waymark_device_reported_region_disagreements_total{device="phone"} 2"#),
                "only kiosk and yard disagree: \(metrics.stdout.split(separator: "\n").filter { $0.contains("disagree") })")
        }
    }
}
