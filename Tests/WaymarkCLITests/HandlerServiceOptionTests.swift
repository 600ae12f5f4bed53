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
