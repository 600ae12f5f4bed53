import Foundation
import Testing
import WaymarkTestSupport

/// Every location service a replay can run, a handler can ask for (docs/handlers.md): automatic
/// pauses and deferred batches with `handlers add`, given exactly the records `waymark replay`
/// prints for the same track and flags.
@Suite struct HandlerServiceOptionTests {
    /// The service records (not region transitions) in order, as kind, time and the fields that
    /// tell batches and pauses apart.
    static func records(_ objects: [[String: Any]]) -> [String] {
        objects.filter { ["location", "paused", "resumed"].contains($0["kind"] as? String ?? "") }.map { record in
            ["kind", "time", "batch", "latitude", "longitude"].map { "\(record[$0] ?? "-")" }.joined(separator: " ")
        }
    }

    @Test func pausesAndDeferredBatchesReachTheHandlerAsReplayPrintsThem() async throws {
        let scenario = try await HandlerScenario()
        // 200 s walking north at 5 m/s past the hut, then 400 s standing still.
        let track = try scenario.track((0..<200).map { (north: -500 + Double($0) * 5, seconds: 1) } + [(north: 500, seconds: 400)])
        let flags = ["--standard", "--desired-accuracy", "3000", "--pauses", "--defer-interval", "60"]
        try await scenario.register(flags: flags)
        let replayed = try await runWaymark(["replay", track, "--fast"] + flags)
        try #require(replayed.status == 0, "\(replayed.stderr)")
        let expected = Self.records(replayed.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(expected.contains { $0.hasPrefix("paused ") }, "the replay pauses: \(expected.suffix(3))")
        #expect(Set(expected.map { $0.split(separator: " ")[2] }).count >= 3, "several batches")

        let daemon = try scenario.serve(track, speed: "200")
        try await daemon.whileRunning {
            let done = try await BackgroundProcess.waitUntil(timeout: 60) {
                Self.records(scenario.events().compactMap { $0["event"] as? [String: Any] }).count >= expected.count
            }
            let given = Self.records(scenario.events().compactMap { $0["event"] as? [String: Any] })
            #expect(done, "\(given.count) of \(expected.count)\n\(daemon.stderr.suffix(1500))")
            #expect(given == expected)
        }
    }

    /// A standard update carries the fix's altitude, speed and course, and no vertical accuracy
    /// when the fix had none (a GPX track has none), to the Python handler and through the Swift
    /// client library alike.
    @Test func locationRecordsCarryAltitudeSpeedAndCourse() async throws {
        let scenario = try await HandlerScenario()
        var gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        for second in 0..<20 {
            gpx += "<trkpt lat=\"\(47.355 + Double(second) * 5 / 111_200)\" lon=\"8.725\"><ele>\(1200 + second)</ele>"
            gpx += String(format: "<time>2026-06-02T10:00:%02dZ</time><speed>5</speed><course>359.5</course></trkpt>\n", second)
        }
        let track = try scenario.directory.write("hike.gpx", gpx + "</trkseg></trk></gpx>\n")
        try await scenario.register(flags: ["--standard"])
        let swiftOut = scenario.directory.path("swift.jsonl")
        let executable = ProjectPaths.waymarkExecutable.deletingLastPathComponent().appendingPathComponent("waymark-example-handler").path
        let added = try await runWaymark(["handlers", "add", "swift", "--exec", executable, "--standard", "--db", scenario.db, "--", swiftOut])
        try #require(added.status == 0, "\(added.stderr)")
        func swiftLines() -> [[String: Any]] {
            ((try? String(contentsOfFile: swiftOut, encoding: .utf8)) ?? "").split(separator: "\n")
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        let daemon = try scenario.serve(track, speed: "10")
        try await daemon.whileRunning {
            let arrived = try await BackgroundProcess.waitUntil(timeout: 30) { !scenario.events().isEmpty && !swiftLines().isEmpty }
            #expect(arrived, "\(daemon.stderr.suffix(2000))")
            let record = try #require(scenario.events().first?["event"] as? [String: Any])
            #expect(record["kind"] as? String == "location")
            #expect(record["altitude"] as? Double == 1200 && record["speed"] as? Double == 5 && record["course"] as? Double == 359.5, "\(record)")
            #expect(record["verticalAccuracy"] == nil, "\(record)")
            let measured = try #require(swiftLines().first?["measured"] as? [String: Double])
            #expect(measured == ["altitude": 1200, "speed": 5, "course": 359.5], "\(measured)")
        }
    }

    @Test func serviceOptionsWithoutStandardAreRefused() async throws {
        let scenario = try await HandlerScenario()
        for flags in [["--significant", "--pauses"], ["--significant", "--defer-interval", "60"], ["--standard", "--defer-distance", "0"]] {
            let result = try await runWaymark(
                ["handlers", "add", "x", "--exec", HandlerScenario.handlerPath, "--regions", "hut", "--db", scenario.db] + flags)
            #expect(result.status != 0, "\(flags)")
            #expect(result.stderr.contains("--standard") || result.stderr.contains("positive"), "\(result.stderr)")
        }
    }
}
