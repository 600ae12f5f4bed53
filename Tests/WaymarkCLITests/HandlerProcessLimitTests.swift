import Foundation
import Testing
import WaymarkTestSupport

/// A handler that forks without end is contained (docs/handlers.md, "Limits"): its cgroup's
/// `pids.max` (`handlers.max_processes`) refuses forks past the limit, and everything in the
/// cgroup — children that left the handler's session included — ends with the daemon.
@Suite struct HandlerProcessLimitTests {
    /// Where the daemon can make cgroups: a writable v1 `pids` hierarchy, as on the CI machine.
    static let cgroupsWritable = access("/sys/fs/cgroup/pids", W_OK) == 0

    /// Forks up to 200 children, each leaving the session (setsid) and sleeping; counts the
    /// forks the kernel refused; writes `started refused`, then waits.
    static let forker = """
        import os, sys, time
        started = refused = 0
        for _ in range(200):
            try:
                pid = os.fork()
            except BlockingIOError:
                refused += 1
                continue
            if pid == 0:
                os.setsid()
                time.sleep(600)
                os._exit(0)
            started += 1
        with open(sys.argv[1], "w") as out:
            out.write(f"{started} {refused}\\n")
        while True:
            time.sleep(1)
        """

    @Test(.enabled(if: cgroupsWritable)) func aForkingHandlerStopsAtItsLimitAndNothingOutlivesTheDaemon() async throws {
        let scenario = try await HandlerScenario()
        let script = try scenario.directory.write("forker.py", Self.forker)
        let counts = scenario.directory.path("counts")
        let configuration = try scenario.directory.write("waymark.yaml", "handlers:\n  max_processes: 16\n")
        let added = try await runWaymark(
            ["handlers", "add", "forker", "--exec", "/usr/bin/python3", "--regions", "hut", "--db", scenario.db, "--", script, counts])
        try #require(added.status == 0, "\(added.stderr)")
        let daemon = try scenario.serveIdle(config: configuration)
        func running() async throws -> Int {
            try await runProcess(URL(fileURLWithPath: "/usr/bin/pgrep"), ["-f", script]).stdout.split(separator: "\n").count
        }
        defer { _ = try? Process.run(URL(fileURLWithPath: "/usr/bin/pkill"), arguments: ["-KILL", "-f", script]) }
        let ready = try await BackgroundProcess.waitUntil(timeout: 20) {
            (try? await runWaymark(["handlers", "launch", "forker", "--socket", scenario.socket]))?.status == 0
        }
        try #require(ready, "\(daemon.stderr.suffix(2000))")
        // The file exists, empty, from the handler's open() until its write: wait for both figures.
        var figures: [Int] = []
        let reported = try await BackgroundProcess.waitUntil(timeout: 30) {
            figures = ((try? String(contentsOfFile: counts, encoding: .utf8)) ?? "").split(separator: " ").compactMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            return figures.count == 2
        }
        try #require(reported, "the handler never finished forking\n\(daemon.stderr.suffix(2000))")
        // The handler itself is one of the 16.
        #expect(figures == [15, 185], "started, refused: \(figures)")
        #expect(try await running() == 16)

        daemon.send(SIGTERM)
        #expect(try await daemon.wait(timeout: 20) == 0, "\(daemon.stderr.suffix(2000))")
        // The children left the handler's session, so its process group does not reach them; its cgroup does.
        let gone = try await BackgroundProcess.waitUntil(timeout: 5) { (try? await running()) == 0 }
        let left = try await running()
        #expect(gone, "\(left) of the handler's processes outlived the daemon")
        #expect(daemon.stderr.contains("Handlers' process limits through cgroups") || daemon.stdout.contains("process limits"), "\(daemon.stderr.suffix(1500))")
    }
}
