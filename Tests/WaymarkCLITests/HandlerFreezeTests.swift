import Foundation
import Testing
import WaymarkTestSupport

/// Suspension reaches what left the handler's process group (docs/handlers.md, "Limits"): where
/// the handler's cgroup can be frozen, a child that called `setsid` stops with it and goes on
/// when it is resumed; `handlers list` says how handlers are suspended.
@Suite struct HandlerFreezeTests {
    @Test func aChildThatLeftTheProcessGroupIsSuspendedWithTheHandler() async throws {
        let scenario = try await HandlerScenario()
        let script = try SetsidTicker.write(in: scenario.directory)
        let ticks = scenario.directory.path("ticks")
        let added = try await runWaymark(
            ["handlers", "add", "hut-log", "--exec", script, "--regions", "hut", "--budget", "1", "--db", scenario.db, "--", ticks,
             HandlerScenario.handlerPath, scenario.out])
        try #require(added.status == 0, "\(added.stderr)")
        let daemon = try scenario.serveIdle()
        try await daemon.whileRunning {
            let pushed = try await BackgroundProcess.waitUntil(timeout: 20) {
                (try? await runWaymark(["handlers", "notify", "hut-log", "--socket", scenario.socket]))?.status == 0
            }
            try #require(pushed, "\(daemon.stderr.suffix(2000))")
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { SetsidTicker.lines(ticks) > 3 }, "the ticker never ran")
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { (try? await scenario.handler()["state"] as? String) == "suspended" })
            let suspension = try await scenario.handler()["suspension"] as? String
            let canFreeze = getuid() == 0 && FileManager.default.fileExists(atPath: "/sys/fs/cgroup/unified/cgroup.procs")
            #expect(suspension == (canFreeze ? "cgroup" : suspension ?? "processGroup"), "\(daemon.stderr.suffix(2000))")
            let listed = try await runWaymark(["handlers", "list", "--socket", scenario.socket]).stdout
            #expect(listed.contains("suspension \(suspension ?? "-")"), "\(listed)")
            guard suspension == "cgroup" else { return }

            try await Task.sleep(for: .milliseconds(300))  // a tick being written when it froze
            let frozen = SetsidTicker.lines(ticks)
            try await Task.sleep(for: .seconds(1.5))
            #expect(SetsidTicker.lines(ticks) == frozen, "the setsid child ran on while the handler was suspended")
            let pid = try #require(scenario.events().first?["pid"] as? Int)
            #expect(HandlerScenario.isSuspended(Int32(pid)))

            // Resumed by the next push: the child goes on too.
            #expect(try await runWaymark(["handlers", "notify", "hut-log", "--socket", scenario.socket]).status == 0)
            #expect(try await BackgroundProcess.waitUntil(timeout: 5) { SetsidTicker.lines(ticks) > frozen + 2 }, "the child stayed frozen")
        }
    }
}
