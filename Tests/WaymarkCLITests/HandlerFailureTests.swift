import Foundation
import Testing
import WaymarkTestSupport

/// Handlers that misbehave, a daemon that dies, and registrations that make no sense.
@Suite(.serialized) struct HandlerFailureTests {
    @Test func aHandlerThatNeverEndsItsBackgroundTaskIsWarnedThenKilled() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--budget", "2", "--max-background-time", "7"], handlerArguments: ["--hold-task"])
        let daemon = try scenario.serve(try scenario.track(HandlerLifecycleTests.legs), speed: "4")
        try await daemon.whileRunning {
            #expect(try await BackgroundProcess.waitUntil(timeout: 30) { scenario.events().count == 1 }, "\(daemon.stderr.suffix(3000))")
            let pid = try #require((scenario.events()[0]["pid"] as? Int).map(Int32.init))
            // Not suspended at 2 s: the task holds it up to 7 s, with an expiration notice 5 s before.
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { scenario.lines().contains { $0["notice"] as? String == "expiration" } })
            #expect(!HandlerScenario.isSuspended(pid))
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { HandlerScenario.processState(pid) == nil })
            let log = try await runWaymark(["handlers", "log", "hut-log", "--db", scenario.db]).stdoutLines
            #expect(log.contains { $0.contains("\"state\":\"terminated\"") && $0.contains("background task(s) still open") }, "\(log)")
        }
    }

    @Test func aCrashLoopingHandlerBacksOffWhileAnotherGetsEveryEventWithinASecond() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register("crasher", flags: ["--budget", "30"], handlerArguments: ["--crash"])
        try await scenario.register("steady", flags: ["--budget", "30"])
        let daemon = try scenario.serve(try scenario.track(HandlerLifecycleTests.legs), speed: "4")
        try await daemon.whileRunning {
            #expect(try await BackgroundProcess.waitUntil(timeout: 40) { scenario.events().count == 2 }, "\(daemon.stderr.suffix(3000))")
            // Latency: from the moment each event was queued (store) to the steady handler's receipt.
            let queued = try await runPython(
                "import sqlite3,sys,json\nc=sqlite3.connect(sys.argv[1])\nprint(json.dumps({str(i):q/1e9 for i,q in c.execute(\"SELECT id, queued_ns FROM handler_events WHERE handler='steady'\")}))",
                [scenario.db])
            let queuedAt = try #require(try JSONSerialization.jsonObject(with: Data(queued.stdout.utf8)) as? [String: Double])
            for event in scenario.events() {
                let id = try #require(event["id"] as? Int)
                let received = try #require(event["receivedAt"] as? Double)
                let delay = received - (queuedAt[String(id)] ?? 0)
                #expect(delay >= 0 && delay < 1, "event \(id) took \(delay) s")
            }
            let log = try await runWaymark(["handlers", "log", "crasher", "--db", scenario.db]).stdoutLines
            let crashes = log.filter { $0.contains("crashed (exit 3)") }
            #expect(crashes.count >= 2, "\(log)")
            #expect(crashes.first?.contains("next launch in 1.0 s") == true)
            #expect(crashes.dropFirst().first?.contains("next launch in 2.0 s") == true)
        }
    }

    @Test func aDaemonKilledWithUnacknowledgedEventsResendsThemWithTheSameIds() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--budget", "30"], handlerArguments: ["--no-ack"])
        let track = try scenario.track(HandlerLifecycleTests.legs)
        let first = try scenario.serve(track, speed: "4")
        #expect(try await BackgroundProcess.waitUntil(timeout: 40) { scenario.events().count == 2 }, "\(first.stderr.suffix(3000))")
        first.send(SIGKILL)
        _ = try await first.wait(timeout: 10)
        let before = scenario.events().map { $0["id"] as? Int }
        // Restarted, the daemon relaunches the handler for what it never acknowledged.
        let second = try scenario.serve(track, speed: "4")
        try await second.whileRunning {
            let resent = try await BackgroundProcess.waitUntil(timeout: 30) { scenario.events().count == 4 }
            #expect(resent, "\(second.stderr.suffix(3000))")
            let events = scenario.events()
            #expect(events.suffix(2).map { $0["id"] as? Int } == before)
            #expect(events.suffix(2).map { $0["attempt"] as? Int } == [2, 2])
            #expect(Set(events.map { $0["pid"] as? Int }).count == 2)
        }
    }

    struct BadRegistration: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let message: String
        var testDescription: String { message }
    }

    static let badRegistrations: [BadRegistration] = [
        .init(arguments: ["h", "--exec", "/nonexistent/handler", "--significant"], message: "--exec /nonexistent/handler: no such file"),
        .init(arguments: ["h", "--exec", ProjectPaths.repositoryRoot.appendingPathComponent("README.md").path, "--significant"], message: "README.md: not executable"),
        .init(arguments: ["h", "--exec", HandlerScenario.handlerPath, "--regions", "atlantis"], message: "unknown region 'atlantis'"),
        .init(arguments: ["h", "--exec", HandlerScenario.handlerPath, "--regions", "hut", "--all-regions"], message: "--regions and --all-regions conflict"),
        .init(arguments: ["h", "--exec", HandlerScenario.handlerPath, "--regions", "hut", "--approximate"], message: "--approximate disables region and beacon monitoring"),
        .init(arguments: ["h", "--exec", HandlerScenario.handlerPath, "--significant", "--distance-filter", "5"], message: "need --standard"),
        .init(arguments: ["h", "--exec", HandlerScenario.handlerPath], message: "subscribe to something"),
        .init(arguments: ["h", "--exec", HandlerScenario.handlerPath, "--beacons", "hut"], message: "'hut' is not a beacon region"),
        .init(arguments: ["h", "--exec", HandlerScenario.handlerPath, "--ranging", "ghost"], message: "unknown beacon region 'ghost'"),
        .init(arguments: ["my handler", "--exec", HandlerScenario.handlerPath, "--significant"], message: "is not 1–64 letters"),
    ]

    @Test(arguments: badRegistrations)
    func aBadRegistrationFailsWithAClearMessage(_ bad: BadRegistration) async throws {
        let scenario = try await HandlerScenario()
        let result = try await runWaymark(["handlers", "add"] + bad.arguments + ["--db", scenario.db])
        #expect(result.status != 0)
        #expect(result.stderr.contains(bad.message), "\(result.stderr)")
        #expect(try await runWaymark(["handlers", "list", "--db", scenario.db]).stdout.isEmpty)
    }

    @Test func registeringTheSameNameTwiceNeedsReplace() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register()
        let again = try await runWaymark(["handlers", "add", "hut-log", "--exec", HandlerScenario.handlerPath, "--significant", "--db", scenario.db])
        #expect(again.status == 1)
        #expect(again.stderr.contains("a handler named 'hut-log' is already registered"))
        let replaced = try await runWaymark(["handlers", "add", "hut-log", "--exec", HandlerScenario.handlerPath, "--significant", "--replace", "--db", scenario.db])
        #expect(replaced.status == 0, "\(replaced.stderr)")
    }
}

/// The API equivalent of `waymark handlers add`, against a running daemon.
@Suite struct HandlerAPITests {
    @Test func registeringThroughTheAPIValidatesLikeTheCLIAndNamesTheField() async throws {
        let scenario = try await HandlerScenario()
        let daemon = try scenario.serve(try scenario.track(HandlerLifecycleTests.legs), speed: "1")
        try await daemon.whileRunning {
            #expect(try await BackgroundProcess.waitUntil(timeout: 20) { unixSocketAccepts(path: scenario.socket) }, "\(daemon.stderr)")
            func post(_ body: String) async throws -> (status: String, body: String) {
                let result = try await runProcess(
                    URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-w", "\n%{http_code}", "--unix-socket", scenario.socket, "-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body,
                                      "http://localhost/v1/handlers"])
                let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
                return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
            }
            let typo = try await post(#"{"name":"api-log","executable":"\#(HandlerScenario.handlerPath)","subscription":{"regions":"hut"}}"#)
            #expect(typo.status == "422")
            #expect(typo.body.contains("subscription.regions: expected Array"), "\(typo.body)")
            let unknown = try await post(#"{"name":"api-log","executable":"\#(HandlerScenario.handlerPath)","subscription":{"regions":["atlantis"]}}"#)
            #expect(unknown.status == "422")
            #expect(unknown.body.contains("unknown region 'atlantis'"))
            let good = try await post(#"{"name":"api-log","executable":"\#(HandlerScenario.handlerPath)","arguments":["--out","\#(scenario.out)"],"subscription":{"regions":["hut"]}}"#)
            #expect(good.status == "201", "\(good.body)")
            #expect(good.body.contains("\"name\":\"api-log\""))
            let again = try await post(#"{"name":"api-log","executable":"\#(HandlerScenario.handlerPath)","subscription":{"regions":["hut"]}}"#)
            #expect(again.status == "409")
            // Registered while running: the hut entry (track second 23, real time at speed 1) reaches
            // it. Generous: on a loaded machine the replay and the handler's start lag.
            #expect(try await BackgroundProcess.waitUntil(timeout: 120) { scenario.events().count == 1 }, "\(daemon.stderr.suffix(2000))")
        }
    }
}
