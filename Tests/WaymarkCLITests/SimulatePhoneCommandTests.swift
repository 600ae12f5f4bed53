import Foundation
import Testing
import WaymarkTestSupport

/// `waymark simulate phone` against a real daemon: over HTTP (the device listener) and through
/// a real mosquitto, the phone's reports recorded and the daemon's commands obeyed — or ignored
/// with `--ignore-commands` — and the failures a user meets named (docs/devices.md, "Phone
/// simulator").
@Suite struct SimulatePhoneCommandTests {
    /// A walk north straight through the plaza circle (47.0, 8.0; 100 m) of the rigs' daemons,
    /// written by `waymark simulate`: 1.4 m/s, a point every 5 s, GPS noise.
    static func walkThroughPlaza(in directory: TemporaryDirectory) async throws -> String {
        let path = directory.path("walk.gpx")
        let written = try await runWaymark([
            "simulate", "--waypoint", "46.996,8.0", "--waypoint", "47.004,8.0", "--speed", "1.4", "--interval", "5", "--noise", "4", "-o", path,
        ])
        try #require(written.status == 0, "\(written.stderr)")
        return path
    }

    static func summary(_ result: ProcessResult) throws -> [String: Any] {
        try #require(result.status == 0, "simulate phone failed (\(result.status)): \(result.stderr.suffix(2000))")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    }

    static func int(_ object: [String: Any], _ path: String) -> Int? {
        var value: Any? = object
        for key in path.split(separator: ".") { value = (value as? [String: Any])?[String(key)] }
        return (value as? NSNumber)?.intValue
    }

    @Test func overHTTPThePhoneHoldsTheDaemonsRegionAndReportsItsOwnCrossings() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        try await rig.daemon.whileRunning {
            let track = try await Self.walkThroughPlaza(in: rig.directory)
            let secret = try rig.directory.write("phone.secret", rig.phoneSecret + "\n")
            let truth = try rig.directory.write("truth.geojson", NetworkDevicesTests.Rig.plaza)
            let common = ["simulate", "phone", track, "--url", "http://127.0.0.1:\(rig.port)", "--truth-regions", truth, "--seed", "4", "--json"]

            let obeying = try Self.summary(try await runWaymark(common + ["--device", "phone", "--user", "alice", "--secret-file", secret]))
            #expect(Self.int(obeying, "maxWaypointsHeld") ?? 0 >= 1, "\(obeying)")
            #expect(Self.int(obeying, "commands.obeyed") ?? 0 >= 1 && Self.int(obeying, "commands.ignored") == 0, "\(obeying)")
            #expect(Self.int(obeying, "transitionsByEvent.enter") == 1 && Self.int(obeying, "transitionsByEvent.leave") == 1, "\(obeying)")
            #expect(Self.int(obeying, "regionEntries") == 1 && Self.int(obeying, "windowMisses") == 0, "\(obeying)")
            #expect((obeying["energy"] as? [String: Any])?["joulesPerHour"] as? Double ?? 0 > 0, "\(obeying)")
            // Every location is in the daemon's history, and the phone's own crossings too.
            let reports = try #require(Self.int(obeying, "reports"))
            #expect(try await rig.history(["--device", "phone", "--kind", "fix"]).count == reports)
            let reported = try await rig.history(["--device", "phone", "--kind", "event"]).filter { $0.contains(#""kind":"reportedRegion""#) }
            #expect(reported.count == 2 && reported.allSatisfy { $0.contains(#""region":"plaza""#) }, "\(reported)")

            // Remote configuration off (the rig's other device): the commands come, none is obeyed, the region is missed.
            let trackerSecret = try rig.directory.write("tracker.secret", rig.trackerSecret)
            let ignoring = try Self.summary(try await runWaymark(common + ["--device", "tracker", "--secret-file", trackerSecret, "--ignore-commands"]))
            #expect(Self.int(ignoring, "commands.received") ?? 0 >= 1 && Self.int(ignoring, "commands.obeyed") == 0, "\(ignoring)")
            #expect(Self.int(ignoring, "maxWaypointsHeld") == 0 && Self.int(ignoring, "transitionsSent") == 0, "\(ignoring)")
            #expect(Self.int(ignoring, "windowMisses") == 1, "\(ignoring)")
        }
    }

    @Test func failuresNameWhatFailed() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        try await rig.daemon.whileRunning {
            let track = try await Self.walkThroughPlaza(in: rig.directory)
            let wrong = try rig.directory.write("wrong.secret", "not-the-secret\n")
            let refused = try await runWaymark(
                ["simulate", "phone", track, "--url", "http://127.0.0.1:\(rig.port)", "--device", "phone", "--secret-file", wrong])
            #expect(refused.status != 0 && refused.stderr.contains("401"), "\(refused.stderr)")

            let secret = try rig.directory.write("phone.secret", rig.phoneSecret)
            let unreachable = try await runWaymark(
                ["simulate", "phone", track, "--url", "http://127.0.0.1:\(try freeLoopbackPort())", "--device", "phone", "--secret-file", secret])
            #expect(unreachable.status != 0 && unreachable.stderr.contains("cannot reach the daemon"), "\(unreachable.stderr)")

            let broken = try rig.directory.write("broken.gpx", "<gpx><trk><trkseg><trkpt lat=\"47\" lon=\"8\"><time>2026-06-01T08:00:00Z</time></trkpt>\n<trkpt lat=")
            let bad = try await runWaymark(
                ["simulate", "phone", broken, "--url", "http://127.0.0.1:\(rig.port)", "--device", "phone", "--secret-file", secret])
            #expect(bad.status != 0 && bad.stderr.contains("broken.gpx:2"), "\(bad.stderr)")
            // Nothing was sent before the track was read whole.
            #expect(try await rig.history(["--device", "phone", "--kind", "fix"]).isEmpty)
        }
    }

    @Test func overMQTTReportsReachTheDaemonAndCommandsComeBackOnTheCommandTopic() async throws {
        try await MQTTDevicesTests.withBrokerAndDaemon { brokerPort, db, directory, _ in
            let track = try await Self.walkThroughPlaza(in: directory)
            let summary = try Self.summary(try await runWaymark([
                "simulate", "phone", track, "--mqtt", "127.0.0.1:\(brokerPort)", "--device", "phone", "--user", "alice", "--seed", "4", "--json",
            ]))
            let reports = try #require(Self.int(summary, "reports"))
            #expect(summary["transport"] as? String == "mqtt")
            let fixes = try await runWaymark(["history", "--db", db, "--device", "phone", "--kind", "fix"]).stdoutLines
            #expect(fixes.count == reports, "\(summary)")
            // The daemon's commands for the phone arrive on owntracks/alice/phone/cmd and are obeyed.
            #expect(Self.int(summary, "commands.obeyed") ?? 0 >= 1 && Self.int(summary, "maxWaypointsHeld") ?? 0 >= 1, "\(summary)")
            #expect(Self.int(summary, "transitionsByEvent.enter") == 1, "\(summary)")
        }
    }
}
