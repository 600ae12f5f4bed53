import Foundation
import Testing
import WaymarkTestSupport

/// Background fetch with real processes (docs/semantics.md §1.5): a handler registered with
/// `--fetch-interval` is woken with reason `fetch` again and again, never sooner than asked, and
/// suspended in between; `finished` with `noData` stretches the interval.
@Suite struct HandlerFetchTests {
    static func fetchTimes(_ scenario: HandlerScenario) -> [Double] {
        scenario.events().filter { $0["reason"] as? String == "fetch" }.compactMap { $0["receivedAt"] as? Double }
    }

    @Test func aHandlerIsWokenForFetchesNoSoonerThanItAsked() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--fetch-interval", "2", "--budget", "1"], handlerArguments: ["--fetch-result", "newData"])
        let daemon = try scenario.serveIdle()
        try await daemon.whileRunning {
            let three = try await BackgroundProcess.waitUntil(timeout: 20) { Self.fetchTimes(scenario).count >= 3 }
            #expect(three, "\(scenario.lines())\n\(daemon.stderr.suffix(2000))")
            let times = Self.fetchTimes(scenario)
            let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
            // Asked 2 s; woken 2.2 s apart (the coalescing tenth) give or take the handler's own timing.
            #expect(gaps.allSatisfy { $0 >= 1.9 }, "\(gaps)")
            let record = scenario.events().first { $0["reason"] as? String == "fetch" }?["event"] as? [String: Any]
            #expect(record?["kind"] as? String == "fetch")
            let log = try await runWaymark(["handlers", "log", "hut-log", "--db", scenario.db]).stdoutLines
            #expect(log.contains { $0.contains("launched for fetch") }, "\(log)")
            #expect(log.contains { $0.contains("budget spent") || $0.contains("finished") }, "suspended in between: \(log)")
        }
    }

    @Test func emptyFetchesComeLessOften() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--fetch-interval", "1", "--budget", "1"], handlerArguments: ["--fetch-result", "noData"])
        let daemon = try scenario.serveIdle()
        try await daemon.whileRunning {
            let four = try await BackgroundProcess.waitUntil(timeout: 30) { Self.fetchTimes(scenario).count >= 4 }
            #expect(four, "\(daemon.stderr.suffix(2000))")
            let times = Self.fetchTimes(scenario)
            let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
            // 1 s asked; each noData doubles it: about 2, 4, 8 s.
            #expect(gaps.count >= 3 && gaps[1] > gaps[0] * 1.5 && gaps[2] > gaps[1] * 1.5, "\(gaps)")
        }
    }

    /// The Swift client library's side: the example handler answers fetches with
    /// `finishedFetch(.newData)`, so its interval stays what it asked.
    @Test func theSwiftClientAnswersFetches() async throws {
        let scenario = try await HandlerScenario()
        let executable = ProjectPaths.waymarkExecutable.deletingLastPathComponent().appendingPathComponent("waymark-example-handler").path
        let out = scenario.directory.path("swift.jsonl")
        let added = try await runWaymark(
            ["handlers", "add", "swift", "--exec", executable, "--fetch-interval", "1", "--budget", "2", "--db", scenario.db, "--", out])
        try #require(added.status == 0, "\(added.stderr)")
        let daemon = try scenario.serveIdle()
        try await daemon.whileRunning {
            func fetches() -> Int {
                ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.contains(#""reason":"fetch""#) }.count
            }
            // newData each time: about one a second (1.1 s with the coalescing tenth), so 4 within 8 s.
            let four = try await BackgroundProcess.waitUntil(timeout: 8) { fetches() >= 4 }
            #expect(four, "\(fetches()) fetches\n\(daemon.stderr.suffix(1500))")
        }
    }

    @Test func anIntervalUnderASecondIsRefused() async throws {
        let scenario = try await HandlerScenario()
        let result = try await runWaymark(
            ["handlers", "add", "x", "--exec", HandlerScenario.handlerPath, "--fetch-interval", "0.5", "--db", scenario.db])
        #expect(result.status != 0 && result.stderr.contains("--fetch-interval"), "\(result.stderr)")
        let alone = try await runWaymark(["handlers", "add", "y", "--exec", HandlerScenario.handlerPath, "--fetch-interval", "60", "--db", scenario.db])
        #expect(alone.status == 0, "a fetch interval is a subscription of its own: \(alone.stderr)")
    }
}
