import Foundation
import Testing
import WaymarkTestSupport

/// Foreground and background with real processes (docs/semantics.md §1.1): a handler the user
/// launched has no time limit (`backgroundTimeRemaining` null); `handlers background` gives it
/// `didEnterBackground` and its budget, after which it is suspended; at shutdown it hears
/// `willTerminate` before SIGTERM.
@Suite struct HandlerForegroundTests {
    @Test func anActiveHandlerMovesToTheBackgroundIsSuspendedAndHearsWillTerminateBeforeSIGTERM() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--budget", "2"], handlerArguments: ["--ask-remaining", "--log-sigterm"])
        let daemon = try scenario.serveIdle()
        func notices() -> [String] { scenario.lines().compactMap { $0["notice"] as? String } }
        func remaining() -> [Any] {
            scenario.lines().filter { $0["notice"] as? String == "backgroundTimeRemaining" }
                .map { ($0["message"] as? [String: Any])?["backgroundTimeRemaining"] ?? "absent" }
        }
        let launched = try await BackgroundProcess.waitUntil(timeout: 20) {
            (try? await runWaymark(["handlers", "launch", "hut-log", "--socket", scenario.socket]))?.status == 0
        }
        try #require(launched, "\(daemon.stderr.suffix(2000))")
        #expect(try await BackgroundProcess.waitUntil(timeout: 10) { remaining().count == 1 }, "\(scenario.lines())")
        #expect(remaining().first is NSNull, "no limit while active: \(remaining())")
        #expect(try await scenario.handler()["state"] as? String == "active")
        try await Task.sleep(for: .seconds(3))
        #expect(try await scenario.handler()["state"] as? String == "active", "no budget while active")

        let moved = try await runWaymark(["handlers", "background", "hut-log", "--socket", scenario.socket])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(try await BackgroundProcess.waitUntil(timeout: 10) { notices().contains("didEnterBackground") && remaining().count == 2 })
        let seconds = (remaining().last as? NSNumber)?.doubleValue ?? -1
        #expect(seconds > 0 && seconds <= 2, "\(remaining())")
        #expect(try await BackgroundProcess.waitUntil(timeout: 10) { (try? await scenario.handler()["state"] as? String) == "suspended" })
        #expect(notices().contains("willSuspend"))

        // Active again, then the daemon stops: willTerminate, then SIGTERM.
        #expect(try await runWaymark(["handlers", "launch", "hut-log", "--socket", scenario.socket]).status == 0)
        #expect(try await BackgroundProcess.waitUntil(timeout: 10) { notices().contains("didBecomeActive") })
        daemon.send(SIGTERM)
        #expect(try await daemon.wait(timeout: 20) == 0, "\(daemon.stderr.suffix(2000))")
        let order = notices()
        let notice = order.lastIndex(of: "willTerminate")
        let term = order.lastIndex(of: "SIGTERM")
        #expect(notice != nil && term != nil && notice! < term!, "\(order)")
    }

    /// A background task begun while active survives the move: the handler is not suspended at
    /// the end of its 1 s budget but when its task ends (4 s), with no expiration notice.
    @Test func aTaskBegunWhileActiveRunsOnInTheBackgroundUntilItEnds() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--budget", "1", "--max-background-time", "30"], handlerArguments: ["--task-seconds", "4"])
        let daemon = try scenario.serveIdle()
        try await daemon.whileRunning {
            func notices(_ name: String) -> [[String: Any]] {
                scenario.lines().filter { $0["notice"] as? String == name }.compactMap { $0["message"] as? [String: Any] }
            }
            let launched = try await BackgroundProcess.waitUntil(timeout: 20) {
                (try? await runWaymark(["handlers", "launch", "hut-log", "--socket", scenario.socket]))?.status == 0
            }
            try #require(launched, "\(daemon.stderr.suffix(2000))")
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { !notices("backgroundTask").isEmpty }, "\(scenario.lines())")
            #expect(try await runWaymark(["handlers", "background", "hut-log", "--socket", scenario.socket]).status == 0)
            try await Task.sleep(for: .seconds(2))
            #expect(try await scenario.handler()["state"] as? String == "background", "suspended with its task open")
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { (try? await scenario.handler()["state"] as? String) == "suspended" })
            #expect(notices("expiration").isEmpty, "\(scenario.lines())")
        }
    }

    /// Without background refresh the move brings no budget: suspended at once, not 10 s later.
    @Test func withoutBackgroundRefreshTheMoveSuspendsAtOnce() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--no-background-refresh"])
        let daemon = try scenario.serveIdle()
        try await daemon.whileRunning {
            let launched = try await BackgroundProcess.waitUntil(timeout: 20) {
                (try? await runWaymark(["handlers", "launch", "hut-log", "--socket", scenario.socket]))?.status == 0
            }
            try #require(launched, "\(daemon.stderr.suffix(2000))")
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { scenario.lines().contains { $0["notice"] as? String == "welcome" } })
            let movedAt = ContinuousClock.now
            #expect(try await runWaymark(["handlers", "background", "hut-log", "--socket", scenario.socket]).status == 0)
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { (try? await scenario.handler()["state"] as? String) == "suspended" })
            #expect(ContinuousClock.now - movedAt < .seconds(5), "it ran on its 10 s budget")
        }
    }

    @Test func backgroundNeedsADaemonAndAKnownHandler() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register()
        let offline = try await runWaymark(["handlers", "background", "hut-log", "--socket", scenario.socket])
        #expect(offline.status != 0 && offline.stderr.contains("no daemon"), "\(offline.stderr)")
        let daemon = try scenario.serveIdle()
        try await daemon.whileRunning {
            _ = try await BackgroundProcess.waitUntil(timeout: 20) { unixSocketAccepts(path: scenario.socket) }
            let unknown = try await runWaymark(["handlers", "background", "nobody-here", "--socket", scenario.socket])
            #expect(unknown.status != 0 && unknown.stderr.contains("no handler"), "\(unknown.stderr)")
        }
    }
}
