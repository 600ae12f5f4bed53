import Foundation
import Testing
import WaymarkTestSupport

/// What a handler leaves behind when the daemon stops (docs/handlers.md): nothing. A handler
/// that ignores SIGTERM, and a child it started, are killed after the termination grace.
@Suite struct HandlerShutdownTests {
    /// Ignores SIGTERM, starts a child (which inherits that), writes both PIDs, and waits.
    static let stubborn = """
        import os, signal, subprocess, sys, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        child = subprocess.Popen(["sleep", "600"])
        with open(sys.argv[1], "w") as out:
            out.write(f"{os.getpid()} {child.pid}\\n")
        while True:
            time.sleep(1)
        """

    @Test func aHandlerIgnoringSIGTERMAndItsChildDoNotOutliveTheDaemon() async throws {
        let scenario = try await HandlerScenario()
        let script = try scenario.directory.write("stubborn.py", Self.stubborn)
        let pids = scenario.directory.path("pids")
        let added = try await runWaymark(
            ["handlers", "add", "stubborn", "--exec", "/usr/bin/python3", "--regions", "hut", "--db", scenario.db, "--", script, pids])
        try #require(added.status == 0, "\(added.stderr)")
        let daemon = try scenario.serveIdle()
        var started: [Int32] = []
        defer { for pid in started { kill(pid, SIGKILL) } }
        let ready = try await BackgroundProcess.waitUntil(timeout: 20) {
            (try? await runWaymark(["handlers", "launch", "stubborn", "--socket", scenario.socket]))?.status == 0
        }
        try #require(ready, "\(daemon.stderr.suffix(2000))")
        _ = try await BackgroundProcess.waitUntil(timeout: 20) {
            started = ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
            return started.count == 2
        }
        try #require(started.count == 2, "the handler never started: \(daemon.stderr.suffix(2000))")

        let stoppedAt = ContinuousClock.now
        daemon.send(SIGTERM)
        let status = try await daemon.wait(timeout: 20)
        #expect(status == 0, "\(daemon.stderr.suffix(2000))")
        // The grace is 3 s: the daemon waits for it, then kills the groups.
        #expect(ContinuousClock.now - stoppedAt >= .seconds(2.5))
        let gone = try await BackgroundProcess.waitUntil(timeout: 10) { started.allSatisfy { HandlerScenario.processState($0) == nil } }
        #expect(gone, "still running: \(started.filter { HandlerScenario.processState($0) != nil })")
        #expect(daemon.stderr.contains("Handler still running after SIGTERM at shutdown; killing it"), "\(daemon.stderr.suffix(2000))")
    }
}

/// A chatty handler's log does not grow without bound (`handlers.log_max_bytes`).
@Suite struct HandlerLogLimitTests {
    /// Writes 100-byte lines to stdout, about 400 KB a second, and its running total to a file.
    static let chatty = """
        import sys, time
        total = 0
        line = "y" * 99 + "\\n"
        while True:
            for _ in range(200):
                sys.stdout.write(line)
            sys.stdout.flush()
            total += 200 * len(line)
            with open(sys.argv[1], "w") as out:
                out.write(str(total))
            time.sleep(0.05)
        """

    @Test func aChattyHandlersLogIsRotated() async throws {
        let scenario = try await HandlerScenario()
        let script = try scenario.directory.write("chatty.py", Self.chatty)
        let totalFile = scenario.directory.path("total")
        let logs = scenario.directory.path("logs")
        let configuration = try scenario.directory.write(
            "waymark.yaml", "handlers:\n  log_directory: \(logs)\n  log_max_bytes: 65536\n")
        let added = try await runWaymark(
            ["handlers", "add", "chatty", "--exec", "/usr/bin/python3", "--regions", "hut", "--db", scenario.db, "--", script, totalFile])
        try #require(added.status == 0, "\(added.stderr)")
        let daemon = try scenario.serveIdle(config: configuration)
        try await daemon.whileRunning {
            let ready = try await BackgroundProcess.waitUntil(timeout: 20) {
                (try? await runWaymark(["handlers", "launch", "chatty", "--socket", scenario.socket]))?.status == 0
            }
            try #require(ready, "\(daemon.stderr.suffix(2000))")
            func total() -> Int { Int((try? String(contentsOfFile: totalFile, encoding: .utf8)) ?? "") ?? 0 }
            // Until it has written 3 MB: without rotation the log would hold all of it.
            _ = try await BackgroundProcess.waitUntil(timeout: 40) { total() >= 3_000_000 }
            try await Task.sleep(for: .seconds(6))  // one more check
            let size = { (path: String) in (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
            let (current, previous, written) = (size(logs + "/chatty.log"), size(logs + "/chatty.log.1"), total())
            #expect(written >= 3_000_000)
            #expect(previous > 65_536, "rotated at least once")
            // At most the limit plus what 5 s of writing adds, in each file.
            #expect(current < 65_536 + 2_500_000 && previous < 65_536 + 2_500_000 && current + previous < written, "\(current) \(previous) \(written)")
            #expect(daemon.stderr.contains("Rotated a handler's log"), "\(daemon.stderr.suffix(2000))")
        }
    }
}

/// Paths given relative to the daemon's working directory still work for handlers, which run
/// in `/` (docs/handlers.md): a relative `--socket` in a folder that does not exist yet.
@Suite struct RelativeSocketTests {
    @Test func aHandlerConnectsThroughARelativeSocketPathInANewFolder() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register()
        let daemon = try BackgroundProcess(
            ProjectPaths.waymarkExecutable, ["serve", "--gpsd", "127.0.0.1:9", "--db", "w.sqlite", "--socket", "new/folder/api.sock"],
            currentDirectory: URL(fileURLWithPath: scenario.directory.path("")))
        let socket = scenario.directory.path("new/folder/api.sock")
        try await daemon.whileRunning {
            let ready = try await BackgroundProcess.waitUntil(timeout: 20) {
                (try? await runWaymark(["handlers", "launch", "hut-log", "--socket", socket]))?.status == 0
            }
            try #require(ready, "\(daemon.stderr.suffix(2000))")
            // The handler got `welcome`: it found the handler socket from `/`.
            let welcomed = try await BackgroundProcess.waitUntil(timeout: 20) { scenario.lines().contains { $0["notice"] as? String == "welcome" } }
            #expect(welcomed, "\(scenario.lines()) \(daemon.stderr.suffix(2000))")
            let handler = try await runWaymark(["handlers", "list", "--json", "--socket", socket]).stdout
            #expect(handler.contains(#""state":"active""#) && handler.contains(#""crashes":0"#), "\(handler)")
        }
    }
}

/// A daemon that dies without its shutdown leaves its handlers behind; the next one ends them
/// before launching anew (docs/handlers.md): no handler stays suspended forever, none runs twice.
@Suite struct OrphanHandlerTests {
    @Test func aSuspendedHandlerLeftByAKilledDaemonIsEndedByTheNextOne() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--budget", "2"])
        let first = try scenario.serve(try scenario.track(HandlerLifecycleTests.legs), speed: "4")
        var pid: Int32 = 0
        defer { if pid > 0 { kill(pid, SIGKILL) } }
        do {
            defer { first.send(SIGKILL) }
            #expect(try await BackgroundProcess.waitUntil(timeout: 30) { scenario.events().count == 1 }, "\(first.stderr.suffix(3000))")
            pid = try #require((scenario.events()[0]["pid"] as? Int).map(Int32.init))
            // Suspended after its 2 s budget, then the daemon is killed: the handler stays stopped.
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { HandlerScenario.isSuspended(pid) })
        }
        _ = try await first.wait(timeout: 10)
        try await Task.sleep(for: .milliseconds(500))
        #expect(HandlerScenario.isSuspended(pid), "orphaned and stopped")

        let second = try scenario.serveIdle()
        try await second.whileRunning {
            let ended = try await BackgroundProcess.waitUntil(timeout: 15) {
                let state = HandlerScenario.processState(pid)
                return state == nil || state == "Z"
            }
            #expect(ended, "the orphan \(pid) is still \(String(describing: HandlerScenario.processState(pid))): \(second.stderr.suffix(2000))")
            #expect(second.stderr.contains("Ending a handler left running by a daemon that did not shut down"), "\(second.stderr.suffix(2000))")
            // Its unacknowledged exit event is still queued for the next launch, with no copy running.
            let handler = try await scenario.handler()
            #expect(handler["pid"] == nil || handler["pid"] is NSNull, "\(handler)")
        }
        // And the record is gone: a third start ends nothing.
        let third = try scenario.serveIdle()
        try await third.whileRunning {
            _ = try await BackgroundProcess.waitUntil(timeout: 10) { (try? await scenario.handlers().isEmpty) == false }
            #expect(!third.stderr.contains("Ending a handler"), "\(third.stderr.suffix(2000))")
        }
    }
}

/// What a handler process starts with (docs/handlers.md): no shell, a fixed PATH and Waymark's
/// own variables only (none of the daemon's environment unless allow-listed), stdin from
/// /dev/null, no descriptor above 2, a session and process group of its own, and the descriptor
/// limit the daemon started with (it raises its own to serve many connections).
@Suite struct HandlerSpawnTests {
    static let inspector = """
        import json, os, resource, sys
        fds = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
        with open(sys.argv[1], "w") as out:
            json.dump({"env": dict(os.environ), "fds": fds, "stdin": os.readlink("/proc/self/fd/0"),
                       "nofile": resource.getrlimit(resource.RLIMIT_NOFILE),
                       "sid": os.getsid(0), "pgid": os.getpgid(0), "pid": os.getpid()}, out)
        """

    @Test func aHandlerStartsWithAMinimalEnvironmentAndNoInheritedDescriptors() async throws {
        let scenario = try await HandlerScenario()
        let script = try scenario.directory.write("inspect.py", Self.inspector)
        let report = scenario.directory.path("report.json")
        let added = try await runWaymark(
            ["handlers", "add", "inspect", "--exec", "/usr/bin/python3", "--regions", "hut", "--db", scenario.db, "--", script, report])
        try #require(added.status == 0, "\(added.stderr)")
        var environment = ProcessInfo.processInfo.environment
        environment["WAYMARK_SECRET_OF_THE_DAEMON"] = "must not leak"
        // Started as systemd starts services: a soft descriptor limit of 1,024 under a higher hard one.
        let daemon = try BackgroundProcess(
            URL(fileURLWithPath: "/usr/bin/prlimit"),
            ["--nofile=1024:8192", ProjectPaths.waymarkExecutable.path, "serve", "--gpsd", "127.0.0.1:9", "--db", scenario.db, "--socket", scenario.socket],
            environment: environment)
        try await daemon.whileRunning {
            let launched = try await BackgroundProcess.waitUntil(timeout: 20) {
                (try? await runWaymark(["handlers", "launch", "inspect", "--socket", scenario.socket]))?.status == 0
            }
            try #require(launched, "\(daemon.stderr.suffix(2000))")
            // Until the handler has written the whole report: the file exists before json.dump ends.
            _ = try await BackgroundProcess.waitUntil(timeout: 20) {
                (try? Data(contentsOf: URL(fileURLWithPath: report))).flatMap { try? JSONSerialization.jsonObject(with: $0) } != nil
            }
            let seen = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
            let env = try #require(seen["env"] as? [String: String])
            #expect(Set(env.keys).subtracting(["LC_CTYPE"]) == ["PATH", "WAYMARK_HANDLER_SOCKET", "WAYMARK_HANDLER_NAME", "WAYMARK_HANDLER_TOKEN", "WAYMARK_LAUNCH_REASON"], "\(env.keys.sorted())")
            #expect(env["PATH"] == "/usr/local/bin:/usr/bin:/bin")
            #expect(env["WAYMARK_HANDLER_SOCKET"]?.hasPrefix("/") == true)
            // 0–2, and the descriptor listdir itself had open.
            let fds = try #require(seen["fds"] as? [Int])
            #expect(Array(fds.prefix(3)) == [0, 1, 2] && fds.count <= 4, "\(fds)")
            #expect(seen["stdin"] as? String == "/dev/null")
            let pid = seen["pid"] as? Int
            #expect(seen["sid"] as? Int == pid && seen["pgid"] as? Int == pid, "a session and group of its own: \(seen)")
            #expect(seen["nofile"] as? [Int] == [1024, 8192], "\(String(describing: seen["nofile"]))")
            let limits = try String(contentsOfFile: "/proc/\(daemon.pid)/limits", encoding: .utf8)
            let files = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }.map(String.init) ?? ""
            #expect(files.split(separator: " ").filter { !$0.isEmpty }.dropFirst(3).prefix(2) == ["8192", "8192"], "the daemon's own: \(files)")
        }
    }
}
