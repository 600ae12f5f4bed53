import Foundation
import Testing
import WaymarkTestSupport

/// Memory pressure with real processes (docs/semantics.md §1.4). The daemon reads
/// /proc/pressure/memory; making this machine short of memory is not something a test should
/// do, so the test points `handlers.memory_pressure_file` at a file it writes in PSI's format —
/// the same reading, parsing and purging code runs.
@Suite struct HandlerMemoryPressureTests {
    static func psi(some: Double) -> String {
        "some avg10=\(some) avg60=0.00 avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
    }

    @Test func theActiveHandlerIsWarnedAndTheLargestSuspendedOneIsPurged() async throws {
        let scenario = try await HandlerScenario()
        let pressure = try scenario.directory.write("pressure", Self.psi(some: 0))
        let configuration = try scenario.directory.write("waymark.yaml", "handlers:\n  memory_pressure_file: \(pressure)\n")
        var outs: [String: String] = [:]
        for (name, ballast) in [("active", 0), ("small", 0), ("big", 96)] {
            outs[name] = scenario.directory.path("\(name).jsonl")
            let added = try await runWaymark(
                ["handlers", "add", name, "--exec", HandlerScenario.handlerPath, "--regions", "hut", "--budget", "1", "--db", scenario.db,
                 "--", "--out", outs[name]!, "--ballast", "\(ballast)"])
            try #require(added.status == 0, "\(added.stderr)")
        }
        func lines(_ name: String) -> [String] { ((try? String(contentsOfFile: outs[name]!, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
        let daemon = try scenario.serveIdle(config: configuration)
        try await daemon.whileRunning {
            let up = try await BackgroundProcess.waitUntil(timeout: 20) {
                (try? await runWaymark(["handlers", "launch", "active", "--socket", scenario.socket]))?.status == 0
            }
            try #require(up, "\(daemon.stderr.suffix(2000))")
            for name in ["small", "big"] { _ = try await runWaymark(["handlers", "notify", name, "--socket", scenario.socket]) }
            let suspended = try await BackgroundProcess.waitUntil(timeout: 20) {
                let handlers = (try? await scenario.handlers()) ?? []
                return handlers.filter { ["small", "big"].contains($0["name"] as? String ?? "") && $0["state"] as? String == "suspended" }.count == 2
            }
            let states = try await scenario.handlers().map { "\($0["name"] ?? "?") \($0["state"] ?? "?")" }
            try #require(suspended, "\(states)")

            try Self.psi(some: 55).write(toFile: pressure, atomically: true, encoding: .utf8)
            let warned = try await BackgroundProcess.waitUntil(timeout: 20) { lines("active").contains { $0.contains("didReceiveMemoryWarning") } }
            #expect(warned, "\(lines("active"))\n\(daemon.stderr.suffix(2000))")
            let purged = try await BackgroundProcess.waitUntil(timeout: 15) {
                (try? await scenario.handler("big"))?["state"] as? String == "terminated"
            }
            let after = try await scenario.handlers().map { "\($0["name"] ?? "?") \($0["state"] ?? "?")" }
            #expect(purged, "\(after)\n\(daemon.stderr.suffix(2000))")
            let log = try await runWaymark(["handlers", "log", "big", "--db", scenario.db]).stdoutLines
            #expect(log.contains { $0.contains("purged: memory pressure") }, "\(log)")
            #expect(try await scenario.handler("active")["state"] as? String == "active")
            // Pressure gone: the small one stays.
            try Self.psi(some: 0).write(toFile: pressure, atomically: true, encoding: .utf8)
            try await Task.sleep(for: .seconds(3))
            #expect(try await scenario.handler("small")["state"] as? String == "suspended")
        }
    }
}
