import Foundation
import Testing
import WaymarkTestSupport

/// A machine restart clears force-quit marks (docs/semantics.md §1.5): a `--no-relaunch` handler
/// force-quit in an earlier boot is launched for its next event; one force-quit in this boot
/// still waits for `handlers launch`.
@Suite struct HandlerRestartRuleTests {
    @Test func aForceQuitMarkFromAnEarlierBootIsClearedAndTheHandlerLaunchesAgain() async throws {
        let scenario = try await HandlerScenario()
        let otherOut = scenario.directory.path("other.jsonl")
        try await scenario.register("rebooted", flags: ["--no-relaunch", "--budget", "30"])
        let added = try await runWaymark(
            ["handlers", "add", "still-quit", "--exec", HandlerScenario.handlerPath, "--regions", "hut", "--no-relaunch", "--budget", "30",
             "--db", scenario.db, "--", "--out", otherOut])
        try #require(added.status == 0, "\(added.stderr)")
        for name in ["rebooted", "still-quit"] {
            let quit = try await runWaymark(["handlers", "quit", name, "--db", scenario.db])
            try #require(quit.status == 0, "\(quit.stderr)")
        }
        // As if the first mark had been set before the machine last started.
        let sqlite = URL(fileURLWithPath: "/usr/bin/sqlite3")
        let boots = try await runProcess(sqlite, [scenario.db, "SELECT name, force_quit, force_quit_boot IS NOT NULL FROM handlers ORDER BY name"])
        #expect(boots.stdout == "rebooted|1|1\nstill-quit|1|1\n", "\(boots.stdout)")
        _ = try await runProcess(sqlite, [scenario.db, "UPDATE handlers SET force_quit_boot = 'an-earlier-boot' WHERE name = 'rebooted'"])

        let daemon = try scenario.serve(try scenario.track(HandlerLifecycleTests.legs), speed: "4")
        try await daemon.whileRunning {
            let launched = try await BackgroundProcess.waitUntil(timeout: 30) { !scenario.events().isEmpty }
            #expect(launched, "the handler force-quit before the reboot was not launched\n\(daemon.stderr.suffix(2000))")
            #expect(daemon.stderr.contains("Force-quit mark cleared"), "\(daemon.stderr.suffix(2000))")
            #expect(try await scenario.handler("rebooted")["forceQuit"] as? Bool == false)
            #expect(try await scenario.handler("still-quit")["forceQuit"] as? Bool == true)
            #expect(!FileManager.default.fileExists(atPath: otherOut), "the handler force-quit in this boot was launched")
        }
    }
}

/// When in use means in use (docs/semantics.md §1.5): standard updates reach a when-in-use
/// handler only while it is active; in the background they neither wake it nor reach it.
@Suite struct WhenInUseHandlerTests {
    static func kinds(_ scenario: HandlerScenario) -> [String] {
        scenario.events().compactMap { ($0["event"] as? [String: Any])?["kind"] as? String }
    }

    @Test func inTheBackgroundStandardUpdatesNeitherWakeNorReachAWhenInUseHandler() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--standard", "--when-in-use", "--budget", "2"])
        let daemon = try scenario.serve(try scenario.track(HandlerLifecycleTests.legs), speed: "4")
        try await daemon.whileRunning {
            // The entry launches it, the exit resumes it: region events only.
            let both = try await BackgroundProcess.waitUntil(timeout: 40) { Self.kinds(scenario).filter { $0 == "region" }.count == 2 }
            #expect(both, "\(Self.kinds(scenario))\n\(daemon.stderr.suffix(2000))")
            try await Task.sleep(for: .seconds(3))
            #expect(!Self.kinds(scenario).contains("location"), "\(Self.kinds(scenario))")
            #expect(scenario.events().allSatisfy { $0["reason"] as? String != "location" })
            // Launched once for the entry, resumed once for the exit: never for an update.
            let log = try await runWaymark(["handlers", "log", "hut-log", "--db", scenario.db]).stdoutLines
            #expect(log.filter { $0.contains("launched for") }.count == 1 && log.contains { $0.contains("launched for region") }, "\(log)")
            #expect(log.filter { $0.contains("resumed for") }.count == 1, "\(log)")
        }
    }

    @Test func whileActiveAWhenInUseHandlerGetsStandardUpdates() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--standard", "--when-in-use"])
        let daemon = try scenario.serve(try scenario.track([(north: 1000, seconds: 600)]), speed: "20")
        try await daemon.whileRunning {
            let launched = try await BackgroundProcess.waitUntil(timeout: 20) {
                (try? await runWaymark(["handlers", "launch", "hut-log", "--socket", scenario.socket]))?.status == 0
            }
            try #require(launched, "\(daemon.stderr.suffix(2000))")
            let updates = try await BackgroundProcess.waitUntil(timeout: 20) { Self.kinds(scenario).filter { $0 == "location" }.count >= 5 }
            #expect(updates, "\(Self.kinds(scenario))\n\(daemon.stderr.suffix(2000))")
            #expect(try await scenario.handler()["state"] as? String == "active")
        }
    }
}
