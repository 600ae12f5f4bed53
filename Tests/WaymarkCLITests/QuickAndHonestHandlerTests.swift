import Foundation
import Testing
import WaymarkCore
import WaymarkStore
import WaymarkTestSupport

/// Quick and honest handlers are favoured (docs/semantics.md §1): real handler processes, judged on how
/// their background periods went.
@Suite(.serialized) struct QuickAndHonestHandlerTests {
    @Test func aHandlerThatSaysFinishedIsSuspendedAtOnceAndKeepsItsFullTime() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--budget", "30"], handlerArguments: ["--finish"])
        let daemon = try scenario.serve(try scenario.track(HandlerLifecycleTests.legs), speed: "4")
        try await daemon.whileRunning {
            #expect(try await BackgroundProcess.waitUntil(timeout: 30) { scenario.events().count == 1 }, "\(daemon.stderr.suffix(3000))")
            let pid = try #require((scenario.events()[0]["pid"] as? Int).map(Int32.init))
            // Stopped long before its 30 s budget: it said it was done.
            #expect(try await BackgroundProcess.waitUntil(timeout: 5) { HandlerScenario.isSuspended(pid) })
            #expect(try await BackgroundProcess.waitUntil(timeout: 30) { scenario.events().count == 2 }, "\(daemon.stderr.suffix(3000))")
            #expect((scenario.events()[1]["pid"] as? Int).map(Int32.init) == pid)
            #expect(try await BackgroundProcess.waitUntil(timeout: 5) { HandlerScenario.isSuspended(pid) })

            let handler = try await scenario.handler()
            let standing = try #require(handler["standing"] as? [String: Any], "\(handler)")
            #expect(standing["quick"] as? Int == 2 && standing["slow"] as? Int == 0 && standing["misreported"] as? Int == 0, "\(standing)")
            #expect(handler["budgetSeconds"] as? Double == 30)
            #expect(try #require(standing["medianQuickSeconds"] as? Double) < 5)
            #expect(!scenario.lines().contains { $0["notice"] as? String == "error" })
            let log = try await runWaymark(["handlers", "log", "hut-log", "--db", scenario.db]).stdoutLines
            #expect(log.filter { $0.contains("\"state\":\"suspended\"") && $0.contains("finished after") && $0.contains("useful work") }.count == 2, "\(log)")
        }
    }

    @Test func aHandlerThatClaimsFinishedWithATaskOpenIsToldAndGetsLessTimeEvenAfterARestart() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--budget", "2", "--max-background-time", "6"], handlerArguments: ["--hold-task", "--finish"])
        let daemon = try scenario.serve(try scenario.track(HandlerLifecycleTests.legs), speed: "4")
        try await daemon.whileRunning {
            #expect(try await BackgroundProcess.waitUntil(timeout: 30) { scenario.events().count == 1 }, "\(daemon.stderr.suffix(3000))")
            let pid = try #require((scenario.events()[0]["pid"] as? Int).map(Int32.init))
            let told = try await BackgroundProcess.waitUntil(timeout: 5) {
                scenario.lines().contains { (($0["message"] as? [String: Any])?["message"] as? String)?.contains("counted as a misreport") == true }
            }
            #expect(told, "\(scenario.lines())")
            // Not suspended by its claim: the open task still holds it, until the cap kills it.
            #expect(!HandlerScenario.isSuspended(pid))
            #expect(try await BackgroundProcess.waitUntil(timeout: 10) { HandlerScenario.processState(pid) == nil })
            #expect(try await BackgroundProcess.waitUntil(timeout: 5) {
                ((try? await scenario.handler())?["standing"] as? [String: Any])?["misreported"] as? Int ?? 0 >= 1
            })
            let handler = try await scenario.handler()
            let budget = try #require(handler["budgetSeconds"] as? Double)
            let cap = try #require(handler["maximumBackgroundSeconds"] as? Double)
            #expect(budget < 2 && budget >= 0.5, "\(handler)")
            #expect(cap < 6 && cap >= 1.5, "\(handler)")

            // The record is in the store: a daemon started later begins from it.
            daemon.send(SIGTERM)
            #expect(try await daemon.wait(timeout: 10) == 0)
            let stored = try await runWaymark(["handlers", "list", "--json", "--db", scenario.db]).stdoutLines
            let record = try #require(stored.first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
            #expect((record["standing"] as? [String: Any])?["misreported"] as? Int ?? 0 >= 1, "\(record)")
            #expect(try #require(record["budgetSeconds"] as? Double) < 2)
        }
    }

    /// A handler that does not know `finished` but acknowledges its events promptly is judged
    /// quick by its last acknowledgement; one that never acknowledges is slow and loses time.
    @Test func handlersThatNeverSayFinishedAreJudgedByTheirAcknowledgements() async throws {
        let scenario = try await HandlerScenario()
        try await scenario.register("prompt", flags: ["--budget", "2"])
        try await scenario.register("silent", flags: ["--budget", "2"], handlerArguments: ["--no-ack"])
        let daemon = try scenario.serve(try scenario.track(HandlerLifecycleTests.legs), speed: "4")
        try await daemon.whileRunning {
            let judged = try await BackgroundProcess.waitUntil(timeout: 40) {
                for name in ["prompt", "silent"] {
                    let periods = ((try? await scenario.handler(name))?["standing"] as? [String: Any])?["periods"] as? Int ?? 0
                    if periods < 2 { return false }
                }
                return true
            }
            #expect(judged, "\(daemon.stderr.suffix(3000))")
            let prompt = try await scenario.handler("prompt")
            let silent = try await scenario.handler("silent")
            let promptStanding = try #require(prompt["standing"] as? [String: Any])
            let silentStanding = try #require(silent["standing"] as? [String: Any])
            #expect(promptStanding["slow"] as? Int == 0 && promptStanding["quick"] as? Int ?? 0 >= 2, "\(prompt)")
            #expect(prompt["budgetSeconds"] as? Double == 2)
            #expect(silentStanding["slow"] as? Int ?? 0 >= 2 && silentStanding["quick"] as? Int == 0, "\(silent)")
            #expect(try #require(silent["budgetSeconds"] as? Double) < 2)
        }
    }

    /// `finished` for the events up to `through` while a later one was sent meanwhile: truthful,
    /// so no misreport, but the handler still has work, so it is not suspended until it is done.
    @Test func finishedThroughAnEarlierEventDoesNotSuspendAHandlerWithANewerOne() async throws {
        let scenario = try await HandlerScenario()
        let script = try scenario.directory.write("two_step.py", Self.twoStepHandler)
        chmod(script, 0o755)
        let registered = try await runWaymark([
            "handlers", "add", "two-step", "--exec", script, "--regions", "hut", "--budget", "30", "--db", scenario.db, "--", scenario.out,
        ])
        try #require(registered.status == 0, "\(registered.stderr)")
        let daemon = try scenario.serve(try scenario.track(HandlerLifecycleTests.legs), speed: "4")
        try await daemon.whileRunning {
            // Entry and exit come 10 s apart, inside one 30 s period; after the exit it says
            // finished through the entry, works 1.5 s more (still running), then finishes for real.
            #expect(try await BackgroundProcess.waitUntil(timeout: 60) { scenario.lines().contains { $0["step"] as? String == "done" } }, "\(daemon.stderr.suffix(3000))")
            let steps = scenario.lines().compactMap { $0["step"] as? String }
            #expect(steps == ["first", "second", "alive", "done"], "\(scenario.lines())")
            #expect(try await BackgroundProcess.waitUntil(timeout: 5) { (try? await scenario.handler("two-step"))?["state"] as? String == "suspended" })
            let standing = try #require(try await scenario.handler("two-step")["standing"] as? [String: Any])
            #expect(standing["quick"] as? Int == 1 && standing["misreported"] as? Int == 0, "\(standing)")
        }
    }

    static let twoStepHandler = #"""
        #!/usr/bin/python3
        import json, os, socket, sys, time
        out = sys.argv[1]
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(os.environ["WAYMARK_HANDLER_SOCKET"])
        reader = connection.makefile("r", encoding="utf-8")
        writer = connection.makefile("w", encoding="utf-8")
        def send(message):
            writer.write(json.dumps(message) + "\n"); writer.flush()
        def note(step, **fields):
            with open(out, "a") as f:
                f.write(json.dumps(dict(step=step, **fields)) + "\n")
        send({"type": "hello", "handler": os.environ["WAYMARK_HANDLER_NAME"], "token": os.environ.get("WAYMARK_HANDLER_TOKEN")})
        first = None
        for line in reader:
            message = json.loads(line)
            if message["type"] == "error":
                note("error", message=message["message"])
            if message["type"] != "event":
                continue
            if first is None:
                first = message["id"]
                send({"type": "ack", "id": first})
                note("first")
            else:
                note("second")
                send({"type": "finished", "useful": True, "through": first})
                time.sleep(1.5)
                note("alive")
                send({"type": "ack", "id": message["id"]})
                note("done")  # before finished: its SIGSTOP may come before the next line runs
                send({"type": "finished", "useful": True})
        """#
}
