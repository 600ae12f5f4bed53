import Foundation
import Testing
import WaymarkTestSupport

/// Pushed wakes (docs/semantics.md §1.5): `handlers notify` queues a durable `push` event that
/// launches the handler with reason `push`; pushes are rate-limited per handler, refused when
/// malformed, and do not bring back a force-quit handler.
@Suite struct HandlerPushTests {
    @Test func aPushLaunchesTheHandlerWithItsDataAndIsRateLimited() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register()
        let daemon = try scenario.serveIdle()
        try await daemon.whileRunning {
            let first = try await BackgroundProcess.waitUntil(timeout: 20) {
                (try? await runWaymark(["handlers", "notify", "hut-log", "--data", #"{"sync":"now"}"#, "--socket", scenario.socket]))?.status == 0
            }
            try #require(first, "\(daemon.stderr.suffix(2000))")
            let launched = try await BackgroundProcess.waitUntil(timeout: 20) { !scenario.events().isEmpty }
            try #require(launched, "\(daemon.stderr.suffix(2000))")
            let event = scenario.events()[0]
            #expect(event["reason"] as? String == "push")
            let record = event["event"] as? [String: Any] ?? [:]
            #expect(record["kind"] as? String == "push" && (record["data"] as? [String: Any])?["sync"] as? String == "now", "\(record)")
            let log = try await runWaymark(["handlers", "log", "hut-log", "--db", scenario.db]).stdoutLines
            #expect(log.contains { $0.contains("launched for push") }, "\(log)")

            // Four more go through (five at once), the sixth is refused with Retry-After.
            for _ in 0..<4 {
                let more = try await runWaymark(["handlers", "notify", "hut-log", "--socket", scenario.socket])
                #expect(more.status == 0, "\(more.stderr)")
            }
            let refused = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/curl"),
                ["-s", "-i", "--unix-socket", scenario.socket, "-H", "Content-Type: application/json", "-d", "{}", "http://localhost/v1/handlers/hut-log/notify"])
            #expect(refused.stdout.hasPrefix("HTTP/1.1 429"), "\(refused.stdout)")
            #expect(refused.stdout.lowercased().contains("retry-after: "), "\(refused.stdout)")
            #expect(refused.stdout.contains(#""code":"rate-limited""#))
            let cli = try await runWaymark(["handlers", "notify", "hut-log", "--socket", scenario.socket])
            #expect(cli.status != 0 && cli.stderr.contains("429"), "\(cli.stderr)")
        }
    }

    @Test func malformedPushesAreRefusedAndForceQuitHandlersStayDown() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register()
        let daemon = try scenario.serveIdle()
        try await daemon.whileRunning {
            _ = try await BackgroundProcess.waitUntil(timeout: 20) { unixSocketAccepts(path: scenario.socket) }
            let bad = try await runWaymark(["handlers", "notify", "hut-log", "--data", "{not json", "--socket", scenario.socket])
            #expect(bad.status != 0 && bad.stderr.contains("invalid-json"), "\(bad.stderr)")
            let big = try await runWaymark(["handlers", "notify", "hut-log", "--data", "\"" + String(repeating: "x", count: 5000) + "\"", "--socket", scenario.socket])
            #expect(big.status != 0 && big.stderr.contains("413"), "\(big.stderr)")
            let nobody = try await runWaymark(["handlers", "notify", "nobody", "--socket", scenario.socket])
            #expect(nobody.status != 0 && nobody.stderr.contains("no-handler"), "\(nobody.stderr)")

            #expect(try await runWaymark(["handlers", "quit", "hut-log", "--socket", scenario.socket]).status == 0)
            #expect(try await runWaymark(["handlers", "notify", "hut-log", "--socket", scenario.socket]).status == 0)
            try await Task.sleep(for: .seconds(2))
            #expect(scenario.events().isEmpty, "a push relaunched a force-quit handler")
            // Its push waits in the queue for the next launch.
            #expect(try await runWaymark(["handlers", "launch", "hut-log", "--socket", scenario.socket]).status == 0)
            #expect(try await BackgroundProcess.waitUntil(timeout: 20) { scenario.events().count == 1 })
        }
    }
}
