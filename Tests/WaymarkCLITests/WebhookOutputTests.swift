import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// Webhook outputs through a real daemon and a real receiver (examples/outputs/webhook_receiver.py,
/// which checks signatures as docs/outputs.md tells receivers to): every event arrives at least
/// once, with an id that is a function of the event, in order per device, through failures, a
/// wrong secret, a 410 and a SIGKILL.
@Suite struct WebhookOutputTests {
    static let receiverScript = ProjectPaths.repositoryRoot.appendingPathComponent("examples/outputs/webhook_receiver.py").path

    /// There and back through the plaza: an enter and, a minute later, an exit.
    static let path = [(47.002, 8.0), (47.0, 8.0), (47.0001, 8.0), (47.0, 8.0001), (47.0, 8.0), (47.002, 8.0), (47.0021, 8.0), (47.0022, 8.0)]

    /// Adds the output through the daemon's API; its signing secret.
    static func addOutput(_ rig: NetworkDevicesTests.Rig, port: Int, _ extra: [String] = []) async throws -> String {
        let added = try await runWaymark(
            ["outputs", "add", "hub", "--webhook", "http://127.0.0.1:\(port)/hook", "--socket", rig.directory.path("api.sock")] + extra)
        try #require(added.status == 0, "\(added.stderr)")
        return try #require(added.stdoutLines.first { $0.hasPrefix("secret: ") }.map { String($0.dropFirst(8)) })
    }

    static func receiver(port: Int, secret: String, log: String, _ extra: [String] = []) throws -> BackgroundProcess {
        try BackgroundProcess(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [receiverScript, "--secret=\(secret)", "--port", "\(port)", "--log", log] + extra)
    }

    /// Both devices walk the path: the phone over OwnTracks, the tracker over the OsmAnd protocol.
    static func walk(_ rig: NetworkDevicesTests.Rig, devices: [String] = ["phone", "tracker"]) async throws {
        let start = Int(Date().timeIntervalSince1970) - 900
        let basic = "Authorization: Basic " + Data("alice:\(rig.phoneSecret)".utf8).base64EncodedString()
        for (index, point) in path.enumerated() {
            let time = start + index * 30
            if devices.contains("phone") {
                let sent = try await rig.ownTracks(
                    NetworkDevicesTests.location(latitude: point.0, longitude: point.1, at: time), ["X-Limit-U: alice", "X-Limit-D: phone", basic])
                #expect(sent.status == 200, "\(sent.body)")
            }
            if devices.contains("tracker") {
                let sent = try await rig.curl("/v1/osmand?id=tracker&lat=\(point.0)&lon=\(point.1)&timestamp=\(time)&accuracy=5&token=\(rig.trackerSecret)")
                #expect(sent.status == 200, "\(sent.body)")
            }
        }
    }

    /// Waits for the receiver to listen; a receiver that could not (its port taken meanwhile by
    /// another process, say) fails the test with what it said.
    static func waitForReceiver(_ receiver: BackgroundProcess, port: Int) async throws {
        let listening = try await BackgroundProcess.waitUntil(timeout: 30) { loopbackAccepts(port: port) }
        try #require(listening, "the receiver is not listening on \(port): \(receiver.stderr.suffix(2000))")
    }

    /// The receiver's lines, as objects.
    static func received(_ log: String) -> [[String: Any]] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func delivered(_ log: String) -> [[String: Any]] { received(log).filter { $0["id"] != nil } }

    /// Waits until the receiver has `count` events.
    static func waitForDeliveries(_ log: String, count: Int, timeout: Double = 60) async throws -> [[String: Any]] {
        _ = try await BackgroundProcess.waitUntil(timeout: timeout) { delivered(log).count >= count }
        return delivered(log)
    }

    /// Each stored region event's CloudEvents id, computed the documented way (first 16 bytes of
    /// SHA-256 over device, newline, record), by Python from the database: the ids a receiver sees
    /// must be these, whatever delivery it was.
    static func expectedIDs(db: String) async throws -> [String] {
        let result = try await runPython(
            """
            import hashlib, sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            for device, record in c.execute("SELECT device, record FROM events WHERE kind = 'region' ORDER BY id"):
                print(hashlib.sha256((device + "\\n" + record).encode()).hexdigest()[:32])
            """, [db])
        return result.stdoutLines
    }

    @Test func everyEventArrivesOnceSignedInOrderThroughFailures() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        try await rig.daemon.whileRunning {
            let port = try freeLoopbackPort()
            let secret = try await Self.addOutput(rig, port: port)
            let log = rig.directory.path("received.jsonl")
            let receiver = try Self.receiver(port: port, secret: secret, log: log, ["--fail-first", "3"])
            try await receiver.whileRunning {
                try await Self.waitForReceiver(receiver, port: port)
                try await Self.walk(rig)
                let events = try await Self.waitForDeliveries(log, count: 4)
                #expect(Self.received(log).prefix(3).allSatisfy { $0["refused"] as? String == "failing on purpose" })
                #expect(events.count == 4, "\(events)")
                #expect(events.allSatisfy { $0["duplicate"] as? Bool == false })
                for device in ["phone", "tracker"] {
                    let mine = events.filter { $0["subject"] as? String == device }
                    #expect(mine.map { $0["type"] as? String } == ["org.waymark.region.enter", "org.waymark.region.exit"], "\(device): \(mine)")
                    let sequences = mine.compactMap { $0["sequence"] as? String }
                    #expect(sequences == sequences.sorted() && sequences.count == 2, "in order: \(sequences)")
                    #expect((mine.first?["data"] as? [String: Any])?["region"] as? String == "plaza")
                }
                #expect(Set(events.compactMap { $0["id"] as? String }) == Set(try await Self.expectedIDs(db: rig.db)))
                let listed = try await runWaymark(["outputs", "list", "--socket", rig.directory.path("api.sock")])
                // At least the three refusals (a lane may also have waited on a refused one's retry).
                #expect(listed.stdout.contains("delivered 4, failed attempts ") && listed.stdout.contains(", given up 0"), "\(listed.stdout)")
                let metrics = try await runProcess(
                    URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--unix-socket", rig.directory.path("api.sock"), "http://localhost/metrics"])
                #expect(metrics.stdout.contains(#"waymark_output_delivered_total{output="hub"} 4"#), "\(metrics.stdout)")
                #expect(metrics.stdout.contains(#"waymark_output_stopped{output="hub"} 0"#))
            }
        }
    }

    @Test func aReceiverWithTheWrongSecretRefusesEveryRequest() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        try await rig.daemon.whileRunning {
            let port = try freeLoopbackPort()
            _ = try await Self.addOutput(rig, port: port)
            let log = rig.directory.path("received.jsonl")
            let receiver = try Self.receiver(port: port, secret: "not-the-secret", log: log)
            try await receiver.whileRunning {
                try await Self.waitForReceiver(receiver, port: port)
                try await Self.walk(rig, devices: ["phone"])
                let refused = try await BackgroundProcess.waitUntil(timeout: 30) { Self.received(log).count >= 2 }
                #expect(refused)
                #expect(Self.received(log).allSatisfy { $0["refused"] as? String == "bad signature" }, "\(Self.received(log))")
                #expect(Self.delivered(log).isEmpty)
                let listed = try await runWaymark(["outputs", "list", "--socket", rig.directory.path("api.sock")])
                #expect(listed.stdout.contains("last error: the receiver answered 401"), "\(listed.stdout)")
            }
        }
    }

    @Test func aReceiverAnswering410StopsTheOutput() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        try await rig.daemon.whileRunning {
            let port = try freeLoopbackPort()
            _ = try await Self.addOutput(rig, port: port)
            let script = """
                import http.server, sys
                class Gone(http.server.BaseHTTPRequestHandler):
                    def do_POST(self):
                        self.rfile.read(int(self.headers.get("Content-Length", "0")))
                        self.send_response(410); self.send_header("Content-Length", "0"); self.end_headers()
                    def log_message(self, *_): pass
                http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Gone).serve_forever()
                """
            let receiver = try BackgroundProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, "\(port)"])
            try await receiver.whileRunning {
                try await Self.waitForReceiver(receiver, port: port)
                try await Self.walk(rig, devices: ["phone"])
                var listed = ""
                let stopped = try await BackgroundProcess.waitUntil(timeout: 30) {
                    listed = try await runWaymark(["outputs", "list", "--db", rig.db]).stdout
                    return listed.contains("STOPPED: the receiver answered 410 Gone")
                }
                #expect(stopped, "\(listed)")
            }
        }
    }

    @Test func afterASIGKILLEveryEventIsDeliveredWithTheIdItAlwaysHad() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        let port = try freeLoopbackPort()
        try await rig.daemon.whileRunning {
            // The receiver is down: the daemon keeps retrying the first event …
            _ = try await Self.addOutput(rig, port: port)
            try await Self.walk(rig)
            let failing = try await BackgroundProcess.waitUntil(timeout: 30) {
                try await runWaymark(["outputs", "list", "--socket", rig.directory.path("api.sock")]).stdout.contains("failed attempts")
            }
            #expect(failing)
            // … and is killed.
            rig.daemon.send(SIGKILL)
            _ = try await rig.daemon.wait(timeout: 10)
        }
        try await Self.withReceiverAndRestartedDaemon(rig, port: port) { log, restarted in
            let events = try await Self.waitForDeliveries(log, count: 4)
            #expect(events.count == 4, "\(events)\n\(restarted.stderr.suffix(2000))")
            #expect(Set(events.compactMap { $0["id"] as? String }) == Set(try await Self.expectedIDs(db: rig.db)), "the stored ids")
            for device in ["phone", "tracker"] {
                let sequences = events.filter { $0["subject"] as? String == device }.compactMap { $0["sequence"] as? String }
                #expect(sequences == sequences.sorted(), "\(device) in its order: \(sequences)")
            }
        }
    }

    /// Once the rig's daemon has stopped: a receiver on `port` with the output's secret, and the
    /// daemon started again on the same database; `body` gets the receiver's log while both run.
    static func withReceiverAndRestartedDaemon(
        _ rig: NetworkDevicesTests.Rig, port: Int, _ body: (_ log: String, _ restarted: BackgroundProcess) async throws -> Void
    ) async throws {
        let secret = try #require(try await Self.secret(db: rig.db))
        let log = rig.directory.path("received.jsonl")
        let receiver = try Self.receiver(port: port, secret: secret, log: log)
        try await receiver.whileRunning {
            try await Self.waitForReceiver(receiver, port: port)
            let restarted = try BackgroundProcess(
                ProjectPaths.waymarkExecutable,
                ["serve", "--gpsd", "127.0.0.1:9", "--db", rig.db, "--socket", rig.directory.path("api.sock")],
                currentDirectory: ProjectPaths.repositoryRoot)
            try await restarted.whileRunning { try await body(log, restarted) }
        }
    }

    @Test func givenUpEventsAreLoggedRetriedOnRequestAndATestEventShowsTheAnswer() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        try await rig.daemon.whileRunning {
            let port = try freeLoopbackPort()
            let socket = ["--socket", rig.directory.path("api.sock")]
            // Retried for a second only, with nobody listening: both events are given up on.
            let secret = try await Self.addOutput(rig, port: port, ["--keep", "1"])
            let unanswered = try await runWaymark(["outputs", "test", "hub"] + socket)
            #expect(unanswered.status == 1 && unanswered.stdout.hasPrefix("hub: "), "\(unanswered.stdout)\(unanswered.stderr)")
            try await Self.walk(rig, devices: ["phone"])
            var log: [String] = []
            let gaveUp = try await BackgroundProcess.waitUntil(timeout: 60) {
                log = try await runWaymark(["outputs", "log", "hub", "--db", rig.db]).stdoutLines
                return log.count == 2
            }
            #expect(gaveUp, "\(log)")
            #expect(log.allSatisfy { $0.hasPrefix("event ") && $0.contains("given up") }, "\(log)")

            let received = rig.directory.path("received.jsonl")
            let receiver = try Self.receiver(port: port, secret: secret, log: received)
            try await receiver.whileRunning {
                try await Self.waitForReceiver(receiver, port: port)
                let tested = try await runWaymark(["outputs", "test", "hub"] + socket)
                #expect(tested.status == 0 && tested.stdout.contains("hub: delivered in"), "\(tested.stdout)\(tested.stderr)")
                let retried = try await runWaymark(["outputs", "retry", "hub"] + socket)
                #expect(retried.stdout.contains("hub: 2 events queued again"), "\(retried.stdout)\(retried.stderr)")
                let events = try await Self.waitForDeliveries(received, count: 3)
                #expect(events.first?["type"] as? String == "org.waymark.test")
                #expect(events.dropFirst().compactMap { $0["id"] as? String } == (try await Self.expectedIDs(db: rig.db)), "one device: in order")
                let emptied = try await BackgroundProcess.waitUntil(timeout: 20) {
                    try await runWaymark(["outputs", "log", "hub", "--db", rig.db]).stdoutLines.isEmpty
                }
                #expect(emptied, "delivered dead letters leave the log")
            }
        }
    }

    @Test func badOutputsAreRefusedNamingTheOption() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        for (arguments, expected) in [
            (["a/b", "--webhook", "https://x/"], "name: an output name has letters"),
            (["hub", "--webhook", "ftp://x/"], "--webhook: expected an http:// or https:// URL"),
            (["hub", "--webhook", "https:///path"], "--webhook: expected a URL with a host"),
            (["hub", "--webhook", "https://x/", "--kind", "nope"], "--kind: unknown kind 'nope'"),
            (["hub", "--webhook", "https://x/", "--keep", "0"], "--keep: expected a positive number of seconds"),
        ] {
            let result = try await runWaymark(["outputs", "add"] + arguments + ["--db", db])
            #expect(result.status == 64 && result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        #expect(try await runWaymark(["outputs", "add", "hub", "--webhook", "https://x/", "--db", db]).status == 0)
        let again = try await runWaymark(["outputs", "add", "hub", "--webhook", "https://y/", "--db", db])
        #expect(again.status != 0 && again.stderr.contains("an output named 'hub' exists"), "\(again.stderr)")
        let missing = try await runWaymark(["outputs", "remove", "nobody", "--db", db])
        #expect(missing.status != 0 && missing.stderr.contains("no output named 'nobody'"), "\(missing.stderr)")
        #expect(try await runWaymark(["outputs", "list", "--db", db]).stdoutLines.count == 1)
    }

    @Test func outputsInTheConfigurationAreStartedWithTheDaemon() async throws {
        let directory = try TemporaryDirectory()
        let secret = try directory.writeSecret("hub-secret", "from-the-file\n")
        let configuration = try directory.write(
            "waymark.yaml", "outputs:\n  hub:\n    webhook: http://127.0.0.1:9/hook\n    secret_file: \(secret)\n    kinds: [region, visit]\n")
        let daemon = try BackgroundProcess(
            ProjectPaths.waymarkExecutable,
            ["serve", "--config", configuration, "--gpsd", "127.0.0.1:9", "--db", directory.path("w.sqlite"), "--socket", directory.path("api.sock")],
            currentDirectory: ProjectPaths.repositoryRoot)
        try await daemon.whileRunning {
            var listed = ""
            let started = try await BackgroundProcess.waitUntil(timeout: 30) {
                listed = try await runWaymark(["outputs", "list", "--socket", directory.path("api.sock")]).stdout
                return listed.contains("hub\twebhook http://127.0.0.1:9/hook\tkinds region,visit")
            }
            #expect(started, "\(listed)\n\(daemon.stderr.suffix(2000))")
        }
    }

    /// The output's secret, read from the database (the test's stand-in for the note the user kept).
    static func secret(db: String) async throws -> String? {
        try await runPython(
            "import sqlite3, sys\nprint(sqlite3.connect(sys.argv[1]).execute(\"SELECT secret FROM outputs WHERE name = 'hub'\").fetchone()[0])",
            [db]
        ).stdoutLines.first
    }
}
