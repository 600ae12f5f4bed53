import Foundation
import Testing
import WaymarkTestSupport

/// Registration options and limits that every handler may use, each tried with real processes
/// (docs/handlers.md): the suspended-handler limit, exits-on-suspend, background refresh off,
/// the memory limit, the environment, working directory and log, and the launch reasons of
/// the location services.
@Suite struct HandlerOptionTests {
    static func add(_ scenario: HandlerScenario, _ name: String, _ flags: [String], out: String? = nil) async throws {
        let result = try await runWaymark(
            ["handlers", "add", name, "--exec", HandlerScenario.handlerPath, "--regions", "hut", "--db", scenario.db] + flags
                + ["--", "--out", out ?? scenario.directory.path("\(name).jsonl")])
        try #require(result.status == 0, "\(result.stderr)")
    }

    static func notify(_ name: String, _ scenario: HandlerScenario) async throws -> Bool {
        try await BackgroundProcess.waitUntil(timeout: 20) {
            (try? await runWaymark(["handlers", "notify", name, "--socket", scenario.socket]))?.status == 0
        }
    }

    static func state(_ name: String, _ scenario: HandlerScenario) async -> String? {
        (try? await scenario.handler(name))?["state"] as? String
    }

    @Test func beyondMaxSuspendedTheOldestSuspendedHandlerIsPurged() async throws {
        let scenario = try await HandlerScenario()
        let config = try scenario.directory.write("waymark.yaml", "handlers:\n  max_suspended: 1\n")
        for name in ["first", "second"] { try await Self.add(scenario, name, ["--budget", "1"]) }
        let daemon = try scenario.serveIdle(config: config)
        try await daemon.whileRunning {
            #expect(try await Self.notify("first", scenario))
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { await Self.state("first", scenario) == "suspended" })
            #expect(try await Self.notify("second", scenario))
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { await Self.state("second", scenario) == "suspended" })
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { await Self.state("first", scenario) == "terminated" })
            let log = try await runWaymark(["handlers", "log", "first", "--db", scenario.db]).stdoutLines
            #expect(log.contains { $0.contains("purged: more than 1 suspended") }, "\(log)")
        }
    }

    @Test func exitsOnSuspendEndsTheProcessWhenItsBudgetIsSpent() async throws {
        let scenario = try await HandlerScenario()
        try await Self.add(scenario, "brief", ["--budget", "1", "--exits-on-suspend"])
        let daemon = try scenario.serveIdle()
        try await daemon.whileRunning {
            #expect(try await Self.notify("brief", scenario))
            let pid = try #require(try await BackgroundProcess.waitUntil(timeout: 10) { (try? await scenario.handler("brief"))?["pid"] != nil }
                ? (try await scenario.handler("brief"))["pid"] as? Int : nil)
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { HandlerScenario.processState(Int32(pid)) == nil }, "the process ended")
            #expect(await Self.state("brief", scenario) != "suspended")
            let log = try await runWaymark(["handlers", "log", "brief", "--db", scenario.db]).stdoutLines
            #expect(log.contains { $0.contains("exits on suspend") }, "\(log)")
        }
    }

    @Test func withoutBackgroundRefreshEventsWaitForTheUser() async throws {
        let scenario = try await HandlerScenario()
        let out = scenario.directory.path("quiet.jsonl")
        try await Self.add(scenario, "quiet", ["--no-background-refresh"], out: out)
        let daemon = try scenario.serveIdle()
        try await daemon.whileRunning {
            #expect(try await Self.notify("quiet", scenario))
            try await Task.sleep(for: .seconds(2))
            #expect(!FileManager.default.fileExists(atPath: out), "launched in the background")
            #expect(try await runWaymark(["handlers", "launch", "quiet", "--socket", scenario.socket]).status == 0)
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) {
                ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains("\"push\"")
            }, "the queued push reaches it once the user starts it")
        }
    }

    @Test func theMemoryLimitIsTheProcessAddressSpaceLimit() async throws {
        let scenario = try await HandlerScenario()
        try await Self.add(scenario, "capped", ["--memory-limit", "\(300 << 20)", "--budget", "30"])
        let daemon = try scenario.serveIdle()
        try await daemon.whileRunning {
            #expect(try await Self.notify("capped", scenario))
            let running = try await BackgroundProcess.waitUntil(timeout: 10) { (try? await scenario.handler("capped"))?["pid"] as? Int != nil }
            let pid = try #require(running ? (try await scenario.handler("capped"))["pid"] as? Int : nil)
            let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
            let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max address space") })
            #expect(line.split(separator: " ").filter { $0 == "\(300 << 20)" }.count == 2, "\(line)")
        }
    }

    @Test func environmentWorkingDirectoryAndLogAreTheRegistrations() async throws {
        let scenario = try await HandlerScenario()
        let work = scenario.directory.path("work")
        let logs = scenario.directory.path("logs")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let script = try scenario.directory.write("where.py", """
            import os, sys, time
            print("cwd=" + os.getcwd(), "var=" + str(os.environ.get("WM_PASSED")), "other=" + str(os.environ.get("WM_KEPT")), flush=True)
            time.sleep(30)
            """)
        let added = try await runWaymark(
            ["handlers", "add", "where", "--exec", "/usr/bin/python3", "--regions", "hut", "--cwd", work, "--env", "WM_PASSED",
             "--db", scenario.db, "--", script])
        try #require(added.status == 0, "\(added.stderr)")
        let config = try scenario.directory.write("waymark.yaml", "handlers:\n  log_directory: \(logs)\n")
        var environment = ProcessInfo.processInfo.environment
        environment["WM_PASSED"] = "given"
        environment["WM_KEPT"] = "withheld"
        let daemon = try scenario.serveIdle(config: config, environment: environment)
        try await daemon.whileRunning {
            #expect(try await Self.notify("where", scenario))
            let logged = try await BackgroundProcess.waitUntil(timeout: 10) {
                ((try? String(contentsOfFile: logs + "/where.log", encoding: .utf8)) ?? "").contains("cwd=")
            }
            let text = (try? String(contentsOfFile: logs + "/where.log", encoding: .utf8)) ?? ""
            #expect(logged, "\(daemon.stderr.suffix(1500))")
            #expect(text.contains("cwd=\(work) var=given other=None"), "\(text)")
        }
    }

    /// Ranging is for a handler that runs anyway: a beacon in sight for 8 s never launches a
    /// handler that only ranges it (docs/semantics.md §1.1), though its reports are queued.
    @Test func rangingNeverLaunchesAHandler() async throws {
        let scenario = try await HandlerScenario()
        let imported = try await runWaymark(["regions", "import", "Beacons/beacon-regions.geojson", "--db", scenario.db])
        try #require(imported.status == 0, "\(imported.stderr)")
        let out = scenario.directory.path("ranger.jsonl")
        let added = try await runWaymark(
            ["handlers", "add", "ranger", "--exec", HandlerScenario.handlerPath, "--ranging", "hut-door", "--db", scenario.db, "--", "--out", out])
        try #require(added.status == 0, "\(added.stderr)")
        var lines = ""
        for second in 0..<8 {
            lines += #"{"time":"2026-06-01T09:00:0\#(second)Z","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":2,"minor":7,"rssi":-70,"measuredPower":-59}"# + "\n"
        }
        let beacons = try scenario.directory.write("hut.jsonl", lines)
        let daemon = try BackgroundProcess.waymark(["serve", "--beacons", beacons, "--speed", "1", "--db", scenario.db, "--socket", scenario.socket])
        try await daemon.whileRunning {
            let queued = try await BackgroundProcess.waitUntil(timeout: 20) {
                let count = try? await runProcess(
                    URL(fileURLWithPath: "/usr/bin/sqlite3"), [scenario.db, "SELECT count(*) FROM handler_events WHERE kind = 'ranging'"])
                return Int(count?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0 >= 3
            }
            #expect(queued, "ranging reports are queued\n\(daemon.stderr.suffix(1500))")
            #expect(!FileManager.default.fileExists(atPath: out), "ranging launched the handler")
            let log = try await runWaymark(["handlers", "log", "ranger", "--db", scenario.db]).stdoutLines
            #expect(!log.contains { $0.contains("launched") }, "\(log)")
        }
    }

    @Test func eachLocationServiceLaunchesWithItsReason() async throws {
        let scenario = try await HandlerScenario()
        // Six minutes at the hut (a visit after five), then a kilometre north.
        let track = try scenario.track([(north: 0, seconds: 360), (north: 1000, seconds: 30)])
        var outs: [String: String] = [:]
        for (name, flag) in [("sig", "--significant"), ("visit", "--visits"), ("loc", "--standard")] {
            outs[name] = scenario.directory.path("\(name).jsonl")
            let added = try await runWaymark(
                ["handlers", "add", name, "--exec", HandlerScenario.handlerPath, flag, "--db", scenario.db, "--", "--out", outs[name]!])
            try #require(added.status == 0, "\(added.stderr)")
        }
        let daemon = try scenario.serve(track, speed: "40")
        try await daemon.whileRunning {
            for (name, reason) in [("sig", "significantChange"), ("visit", "visit"), ("loc", "location")] {
                let launched = try await BackgroundProcess.waitUntil(timeout: 30) {
                    ((try? String(contentsOfFile: outs[name]!, encoding: .utf8)) ?? "").contains("\"reason\": \"\(reason)\"")
                }
                #expect(launched, "\(name): \((try? String(contentsOfFile: outs[name]!, encoding: .utf8)) ?? "nothing")")
                let log = try await runWaymark(["handlers", "log", name, "--db", scenario.db]).stdoutLines
                #expect(log.contains { $0.contains("launched for \(reason)") }, "\(name): \(log)")
            }
        }
    }
}
