import Foundation
import Testing
import WaymarkTestSupport

/// Handlers as real processes with real signals (docs/semantics.md §1).
@Suite(.serialized) struct HandlerLifecycleTests {
    /// 3 s a kilometre north, 40 s at the hut, 40 s a kilometre north again, at 4× speed:
    /// the entry is confirmed at track second 23 (≈ 6 s in), the exit at 63 (≈ 16 s in).
    static let legs: [(north: Double, seconds: Int)] = [(1000, 3), (0, 40), (1000, 40)]

    @Test func aRegionEntryLaunchesTheHandlerWhichIsSuspendedAfterItsBudgetAndResumedByTheNextEvent() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--budget", "2"])
        let daemon = try scenario.serve(try scenario.track(Self.legs), speed: "4")
        try await daemon.whileRunning {
            #expect(try await BackgroundProcess.waitUntil(timeout: 30) { scenario.events().count == 1 }, "\(daemon.stderr.suffix(3000))")
            let first = scenario.events()[0]
            let pid = try #require(first["pid"] as? Int32 ?? (first["pid"] as? Int).map(Int32.init))
            #expect((first["event"] as? [String: Any])?["transition"] as? String == "enter")
            #expect(first["reason"] as? String == "region")
            // After its 2 s budget it is stopped: state T.
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { HandlerScenario.isSuspended(pid) })
            #expect(try await scenario.handler()["state"] as? String == "suspended")
            // The exit resumes the same process.
            #expect(try await BackgroundProcess.waitUntil(timeout: 30) { scenario.events().count == 2 }, "\(daemon.stderr.suffix(3000))")
            let second = scenario.events()[1]
            #expect((second["event"] as? [String: Any])?["transition"] as? String == "exit")
            #expect((second["pid"] as? Int).map(Int32.init) == pid)
            #expect(scenario.lines().contains { $0["notice"] as? String == "didResume" })
            #expect(scenario.lines().contains { $0["notice"] as? String == "willSuspend" })
            let log = try await runWaymark(["handlers", "log", "hut-log", "--db", scenario.db]).stdoutLines
            #expect(log.contains { $0.contains("\"state\":\"background\"") && $0.contains("launched for region") })
            #expect(log.contains { $0.contains("\"state\":\"suspended\"") && $0.contains("budget spent") })
            #expect(log.contains { $0.contains("resumed for an event") })
        }
    }

    @Test func aForceQuitLocationHandlerIsRelaunchedForItsNextEvent() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--budget", "30"])
        let daemon = try scenario.serve(try scenario.track(Self.legs), speed: "4")
        try await daemon.whileRunning {
            #expect(try await BackgroundProcess.waitUntil(timeout: 30) { scenario.events().count == 1 }, "\(daemon.stderr.suffix(3000))")
            let pid = try #require((scenario.events()[0]["pid"] as? Int).map(Int32.init))
            let quit = try await runWaymark(["handlers", "quit", "hut-log", "--socket", scenario.socket])
            #expect(quit.status == 0, "\(quit.stderr)")
            #expect(try await BackgroundProcess.waitUntil(timeout: 5) { HandlerScenario.processState(pid) == nil })
            #expect(try await scenario.handler()["forceQuit"] as? Bool == true)
            #expect(try await BackgroundProcess.waitUntil(timeout: 30) { scenario.events().count == 2 }, "\(daemon.stderr.suffix(3000))")
            let relaunched = try #require((scenario.events()[1]["pid"] as? Int).map(Int32.init))
            #expect(relaunched != pid)
        }
    }

    @Test func withTheRelaunchPolicyOffAForceQuitHandlerWaitsForLaunch() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--budget", "30", "--no-relaunch"])
        let daemon = try scenario.serve(try scenario.track(Self.legs), speed: "4")
        try await daemon.whileRunning {
            #expect(try await BackgroundProcess.waitUntil(timeout: 30) { scenario.events().count == 1 }, "\(daemon.stderr.suffix(3000))")
            #expect(try await runWaymark(["handlers", "quit", "hut-log", "--socket", scenario.socket]).status == 0)
            // The exit event is queued, not delivered: the handler stays down.
            #expect(try await BackgroundProcess.waitUntil(timeout: 30) { (try? await scenario.handler()["eventsUnacknowledged"] as? Int) == 1 })
            try await Task.sleep(for: .seconds(1))
            #expect(scenario.events().count == 1)
            #expect(try await scenario.handler()["state"] as? String == "terminated")
            let launch = try await runWaymark(["handlers", "launch", "hut-log", "--socket", scenario.socket])
            #expect(launch.status == 0, "\(launch.stderr)")
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { scenario.events().count == 2 })
            #expect(try await scenario.handler()["state"] as? String == "active")
        }
    }
}

/// The Swift client library through the example handler built with the package.
@Suite struct SwiftClientHandlerTests {
    @Test func theSwiftExampleHandlerGetsEventsBackgroundTimeAndAnswers() async throws {
        let scenario = try await HandlerScenario()
        let executable = ProjectPaths.waymarkExecutable.deletingLastPathComponent().appendingPathComponent("waymark-example-handler").path
        let registered = try await runWaymark([
            "handlers", "add", "hut-swift", "--exec", executable, "--regions", "hut", "--budget", "30", "--db", scenario.db,
            "--", scenario.out,
        ])
        try #require(registered.status == 0, "\(registered.stderr)")
        let daemon = try scenario.serve(try scenario.track(HandlerLifecycleTests.legs), speed: "4")
        try await daemon.whileRunning {
            #expect(try await BackgroundProcess.waitUntil(timeout: 40) { scenario.lines().count == 2 }, "\(daemon.stderr.suffix(3000))")
            let lines = scenario.lines()
            #expect(lines.map { $0["reason"] as? String } == ["region", "region"])
            #expect(lines.first?["launchReason"] as? String == "region")
            #expect(lines.map { $0["regionState"] as? String } == ["inside", "outside"])
            #expect((lines.first?["backgroundTimeRemaining"] as? Double ?? 0) > 20)
            #expect((lines.first?["lastLocation"] as? String)?.contains("\"kind\":\"fix\"") == true)
            #expect(try await BackgroundProcess.waitUntil(timeout: 5) { (try? await scenario.handler("hut-swift")["eventsUnacknowledged"] as? Int) == 0 })
            // It says `finished` after each event, truthfully: each period ends at once, quick.
            let judged = try await BackgroundProcess.waitUntil(timeout: 5) {
                let standing = (try? await scenario.handler("hut-swift"))?["standing"] as? [String: Any]
                return standing?["quick"] as? Int == 2 && standing?["misreported"] as? Int == 0
            }
            let handler = judged ? [:] : ((try? await scenario.handler("hut-swift")) ?? [:])
            #expect(judged, "\(handler)")
        }
    }
}

/// Beacon regions for handlers: entries launch them, ranging reaches them while they run.
@Suite struct BeaconHandlerTests {
    @Test func aBeaconEntryLaunchesTheHandlerWhichThenGetsRangingAboutOnceASecond() async throws {
        let scenario = try await HandlerScenario()
        let imported = try await runWaymark(["regions", "import", "Beacons/beacon-regions.geojson", "--db", scenario.db])
        try #require(imported.status == 0, "\(imported.stderr)")
        let registered = try await runWaymark([
            "handlers", "add", "door", "--exec", HandlerScenario.handlerPath, "--beacons", "hut-door", "--ranging", "hut-door",
            "--budget", "60", "--db", scenario.db, "--", "--out", scenario.out,
        ])
        try #require(registered.status == 0, "\(registered.stderr)")
        // The hut's beacon (major 2, minor 7) every second for 12 s, coming closer.
        var lines = ""
        for second in 0..<12 {
            lines += #"{"time":"2026-06-01T09:00:\#(String(format: "%02d", second))Z","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":2,"minor":7,"rssi":\#(-80 + second * 2),"measuredPower":-59}"# + "\n"
        }
        let beacons = try scenario.directory.write("hut.jsonl", lines)
        let daemon = try BackgroundProcess.waymark([
            "serve", "--beacons", beacons, "--speed", "1", "--db", scenario.db, "--socket", scenario.socket,
        ])
        try await daemon.whileRunning {
            #expect(try await BackgroundProcess.waitUntil(timeout: 30) { scenario.events().filter { $0["reason"] as? String == "ranging" }.count >= 5 },
                    "\(daemon.stderr.suffix(3000))")
            let events = scenario.events()
            let first = try #require(events.first)
            #expect(first["reason"] as? String == "beacon")
            #expect((first["event"] as? [String: Any])?["transition"] as? String == "enter")
            #expect((first["event"] as? [String: Any])?["region"] as? String == "hut-door")
            let ranging = events.filter { $0["reason"] as? String == "ranging" }.compactMap { $0["event"] as? [String: Any] }
            let times = ranging.compactMap { $0["time"] as? String }
            #expect(Set(times).count == times.count)  // one report per second
            let beaconsSeen = ranging.compactMap { ($0["beacons"] as? [[String: Any]])?.first }
            #expect(beaconsSeen.allSatisfy { $0["major"] as? Int == 2 && $0["proximity"] != nil })
        }
    }
}
