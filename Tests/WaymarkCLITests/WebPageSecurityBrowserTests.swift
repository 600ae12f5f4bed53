import Foundation
import Testing
import WaymarkTestSupport

/// Issue 48 in a real browser (headless Chromium through Selenium, as `WebPageBrowserTests`):
/// text from outside — a region's identifier, a phone's OwnTracks transition `desc` (which
/// becomes an event's region; sent over HTTP and over MQTT), waypoint and card, the tiles'
/// attribution — is shown as text on
/// the map's tooltips and lists and never runs; the page's answers carry the
/// Content-Security-Policy; the token is kept nowhere script could read it back; and a page on
/// another origin cannot change state through the documented Unix-socket forward.
/// `Tests/Browser/untrusted_text.py` does the clicking and checking. One daemon start.
@Suite struct WebPageSecurityBrowserTests {
    static let script = ProjectPaths.repositoryRoot.appendingPathComponent("Tests/Browser/untrusted_text.py").path

    /// The script's payload `n`: an image whose failing load would set `window.__pwned = n`.
    static func payload(_ n: Int) -> String { #"<img src=x onerror="window.__pwned=\#(n)">"# }

    static func jsonString(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }

    @Test func untrustedTextIsTextAndOtherOriginsCannotChangeState() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let regions = try directory.write(
            "regions.geojson",
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":\#(Self.jsonString(Self.payload(1))),"#
                + #""geometry":{"type":"Point","coordinates":[8.0,47.0]},"properties":{"radius":100}}]}"#)
        try #require(try await runWaymark(["regions", "import", regions, "--db", db]).status == 0)
        let phone = try await runWaymark(["devices", "add", "phone", "--user", "alice", "--db", db])
        let secret = try #require(DevicesCommandTests.secret(in: phone.stdout))
        // The handler another origin's page tries to launch.
        let added = try await runWaymark(
            ["handlers", "add", "logger", "--exec", HandlerScenario.handlerPath, "--significant", "--db", db, "--", "--out", directory.path("logger.jsonl")])
        try #require(added.status == 0, "\(added.stderr)")

        // A broker: the same transition text arrives over MQTT too, where the broker, not a
        // device secret, decides who may publish.
        let brokerPort = try freeLoopbackPort()
        let brokerConfiguration = try directory.write("mosquitto.conf", "listener \(brokerPort) 127.0.0.1\nallow_anonymous true\npersistence false\n")
        let broker = try BackgroundProcess(URL(fileURLWithPath: "/usr/sbin/mosquitto"), ["-c", brokerConfiguration])
        try await broker.whileRunning {
            try #require(try await BackgroundProcess.waitUntil(timeout: 20) { loopbackAccepts(port: brokerPort) }, "\(broker.stderr)")
            try await Self.withDaemon(directory: directory, db: db, secret: secret, brokerPort: brokerPort)
        }
    }

    static func withDaemon(directory: TemporaryDirectory, db: String, secret: String, brokerPort: Int) async throws {
        let token = "browser-security-token"
        let tokenFile = try directory.writeSecret("token", token + "\n")
        let (apiPort, devicePort, sidePort, forwardPort) = (try freeLoopbackPort(), try freeLoopbackPort(), try freeLoopbackPort(), try freeLoopbackPort())
        let config = try directory.write(
            "waymark.yaml",
            "web:\n  tiles: http://127.0.0.1:\(sidePort)/tiles/{z}/{x}/{y}.png\n  attribution: '\(Self.payload(3))Tiles'\n")
        let socket = directory.path("api.sock")
        let daemon = try BackgroundProcess.waymark([
            "serve", "--config", config, "--gpsd", "127.0.0.1:9", "--db", db, "--socket", socket,
            "--tcp-port", "\(apiPort)", "--token-file", tokenFile, "--listen", "127.0.0.1:\(devicePort)",
            "--mqtt", "127.0.0.1:\(brokerPort)",
        ])
        try await daemon.whileRunning {
            let listening = try await BackgroundProcess.waitUntil(timeout: 30) { loopbackAccepts(port: apiPort) && loopbackAccepts(port: devicePort) }
            try #require(listening, "the daemon never listened: \(daemon.stderr.suffix(2000))")

            // The phone: into the region (the daemon's own enter names it by its identifier),
            // then its own transition, waypoint and card with payloads for names.
            let start = Int(Date().timeIntervalSince1970) - 600
            let batch = "["
                + #"{"_type":"location","lat":47.002,"lon":8.0,"tst":\#(start),"acc":5,"t":"u","tid":"ph"},"#
                + #"{"_type":"location","lat":47.0,"lon":8.0,"tst":\#(start + 60),"acc":5,"t":"u","tid":"ph"},"#
                + #"{"_type":"transition","event":"enter","desc":\#(Self.jsonString(Self.payload(2))),"lat":47.0001,"lon":8.0001,"tst":\#(start + 90),"acc":5,"t":"c","tid":"ph"},"#
                + #"{"_type":"waypoint","desc":\#(Self.jsonString(Self.payload(5))),"lat":47.0,"lon":8.0,"rad":50,"tst":\#(start + 100)},"#
                + #"{"_type":"card","name":\#(Self.jsonString(Self.payload(4)))},"#
                + #"{"_type":"location","lat":47.0,"lon":8.0001,"tst":\#(start + 120),"acc":5,"t":"u","tid":"ph"}]"#
            let basic = "Authorization: Basic " + Data("alice:\(secret)".utf8).base64EncodedString()
            let sent = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/curl"),
                ["-sS", "--max-time", "30", "-w", "\n%{http_code}", "-X", "POST", "-H", "Content-Type: application/json", "-H", basic,
                 "-H", "X-Limit-U: alice", "-H", "X-Limit-D: phone", "--data-binary", batch, "http://127.0.0.1:\(devicePort)/v1/owntracks"])
            try #require(sent.stdout.hasSuffix("\n200"), "OwnTracks batch: \(sent.stdout) \(sent.stderr)")
            try await MQTTDevicesTests.publish(port: brokerPort, [(
                "owntracks/alice/phone/event",
                #"{"_type":"transition","event":"leave","desc":\#(Self.jsonString(Self.payload(6))),"lat":47.0,"lon":8.0,"tst":\#(start + 110),"acc":5,"t":"c","tid":"ph"}"#
            )])
            var events = ""
            let stored = try await BackgroundProcess.waitUntil(timeout: 30) {
                events = try await runWaymark(["history", "--db", db, "--device", "phone", "--kind", "event"]).stdout
                return events.contains("onerror") && events.contains("__pwned=6")
            }
            try #require(stored, "the payloads were not stored: \(events)\n\(daemon.stderr.suffix(2000))")

            let result = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/python3"),
                [
                    Self.script, "--url", "http://127.0.0.1:\(apiPort)/", "--token", token, "--socket", socket,
                    "--side-port", "\(sidePort)", "--forward-port", "\(forwardPort)",
                    "--payload", Self.payload(1), "--payload", Self.payload(2), "--payload", Self.payload(3), "--payload", Self.payload(6),
                ])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)\n--- daemon ---\n\(daemon.stderr.suffix(3000))")

            // Nothing the other origin's page sent was registered.
            let handlers = try await runWaymark(["handlers", "list", "--db", db])
            #expect(handlers.stdout.contains("logger") && !handlers.stdout.contains("pwn"), "\(handlers.stdout)")
        }
    }
}
