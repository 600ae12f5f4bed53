import Foundation
import Testing
import WaymarkTestSupport

/// Suspension reaches what left the handler's process group (docs/handlers.md, "Limits"): where
/// the handler's cgroup can be frozen, a child that called `setsid` stops with it and goes on
/// when it is resumed; `handlers list` says how handlers are suspended.
@Suite struct HandlerFreezeTests {
    /// Starts a ticker in a session of its own (out of the handler's process group), then
    /// becomes the example handler.
    static let wrapper = """
        #!/bin/sh
        setsid sh -c 'while :; do echo tick >> "$0"; sleep 0.1; done' "$1" &
        exec /usr/bin/python3 "$2" --out "$3"
        """

    static func ticks(_ path: String) -> Int {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    @Test func aChildThatLeftTheProcessGroupIsSuspendedWithTheHandler() async throws {
        let scenario = try await HandlerScenario()
        let script = try scenario.directory.write("wrapper.sh", Self.wrapper)
        chmod(script, 0o755)
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
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { Self.ticks(ticks) > 3 }, "the ticker never ran")
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { (try? await scenario.handler()["state"] as? String) == "suspended" })
            let suspension = try await scenario.handler()["suspension"] as? String
            let canFreeze = getuid() == 0 && FileManager.default.fileExists(atPath: "/sys/fs/cgroup/unified/cgroup.procs")
            #expect(suspension == (canFreeze ? "cgroup" : suspension ?? "processGroup"), "\(daemon.stderr.suffix(2000))")
            let listed = try await runWaymark(["handlers", "list", "--socket", scenario.socket]).stdout
            #expect(listed.contains("suspension \(suspension ?? "-")"), "\(listed)")
            guard suspension == "cgroup" else { return }

            try await Task.sleep(for: .milliseconds(300))  // a tick being written when it froze
            let frozen = Self.ticks(ticks)
            try await Task.sleep(for: .seconds(1.5))
            #expect(Self.ticks(ticks) == frozen, "the setsid child ran on while the handler was suspended")
            let pid = try #require(scenario.events().first?["pid"] as? Int)
            #expect(HandlerScenario.isSuspended(Int32(pid)))

            // Resumed by the next push: the child goes on too.
            #expect(try await runWaymark(["handlers", "notify", "hut-log", "--socket", scenario.socket]).status == 0)
            #expect(try await BackgroundProcess.waitUntil(timeout: 5) { Self.ticks(ticks) > frozen + 2 }, "the child stayed frozen")
        }
    }
}
