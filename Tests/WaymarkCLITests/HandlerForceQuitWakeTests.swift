import Foundation
import Testing
import WaymarkTestSupport

/// After a force-quit only location events bring a handler back (docs/semantics.md §1.5, "Wakes
/// by kind"): a fetch it was sent before the quit and never acknowledged, and a push after it,
/// leave it down; `handlers launch` delivers them. (A region event's relaunch:
/// `HandlerLifecycleTests.aForceQuitLocationHandlerIsRelaunchedForItsNextEvent`.)
@Suite struct HandlerForceQuitWakeTests {
    @Test func anUnacknowledgedFetchAndAPushDoNotRelaunchAForceQuitHandler() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--fetch-interval", "1", "--budget", "30"], handlerArguments: ["--no-ack"])
        let daemon = try scenario.serveIdle()
        try await daemon.whileRunning {
            let fetched = try await BackgroundProcess.waitUntil(timeout: 20) { !scenario.events().isEmpty }
            try #require(fetched, "\(daemon.stderr.suffix(2000))")
            #expect(scenario.events()[0]["reason"] as? String == "fetch")
            let pid = try #require((scenario.events()[0]["pid"] as? Int).map(Int32.init))
            #expect(try await runWaymark(["handlers", "quit", "hut-log", "--socket", scenario.socket]).status == 0)
            #expect(try await BackgroundProcess.waitUntil(timeout: 5) { HandlerScenario.processState(pid) == nil })
            let before = scenario.events().count
            #expect(try await runWaymark(["handlers", "notify", "hut-log", "--socket", scenario.socket]).status == 0)
            try await Task.sleep(for: .seconds(3))
            #expect(scenario.events().count == before, "relaunched: \(scenario.events())")
            #expect(try await scenario.handler()["state"] as? String == "terminated")

            // The user's launch brings it back with what waited: the fetches again, then the push.
            #expect(try await runWaymark(["handlers", "launch", "hut-log", "--socket", scenario.socket]).status == 0)
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { scenario.events().contains { $0["reason"] as? String == "push" } })
            let again = scenario.events().dropFirst(before)
            #expect(again.first?["reason"] as? String == "fetch" && (again.first?["attempt"] as? Int ?? 0) > 1, "\(again)")
        }
    }
}
