import Foundation
import Testing
import WaymarkTestSupport

/// What the MQTT device feed does not take (docs/devices.md): payloads over 64 KiB, and the
/// retained messages a broker sends again on every subscription — through a real mosquitto, a
/// real publisher (paho-mqtt) and a daemon started twice.
@Suite struct MQTTFeedLimitsTests {
    @Test func aPayloadOverTheLimitIsRefusedCountedLoggedAndNotStored() async throws {
        try await MQTTDevicesTests.withBrokerAndDaemon { brokerPort, db, directory, daemon in
            let huge = #"{"_type":"card","name":""# + String(repeating: "x", count: 100_000) + #""}"#
            let (events, status) = try await Self.publishThenACard(("owntracks/alice/phone/info", huge), port: brokerPort, db: db, directory: directory)
            #expect(events.count == 1 && events[0].contains(#""name":"Alice""#), "\(events)")
            #expect(status.contains(#""mqtt.too-large":1"#), "\(status)")
            let logged = daemon.stderr.split(separator: "\n").first { $0.contains("Refused an MQTT message over the size limit") } ?? ""
            #expect(logged.contains("owntracks/alice/phone/info") && logged.contains("\(huge.utf8.count)"), "\(daemon.stderr.suffix(2000))")
        }
    }

    /// Issue 48: a message naming a topic in its body must name the device the broker let
    /// publish, as every message of an HTTP batch must.
    @Test func aMessageNamingAnotherDeviceInItsBodyIsRefused() async throws {
        try await MQTTDevicesTests.withBrokerAndDaemon { brokerPort, db, directory, daemon in
            let time = Int(Date().timeIntervalSince1970) - 120
            let smuggled = "[" + NetworkDevicesTests.location(latitude: 47.3, longitude: 8.5, at: time, topic: "owntracks/alice/phone")
                + "," + NetworkDevicesTests.location(latitude: 47.3, longitude: 8.5, at: time + 10, topic: "owntracks/bob/tracker") + "]"
            let (events, status) = try await Self.publishThenACard(("owntracks/alice/phone", smuggled), port: brokerPort, db: db, directory: directory)
            #expect(!events.isEmpty, "\(daemon.stderr.suffix(2000))")
            // The card, published after it, arrived; the batch did not.
            #expect(try await runWaymark(["history", "--db", db, "--device", "phone", "--kind", "fix"]).stdoutLines.isEmpty)
            #expect(status.contains(#""forbidden":1"#), "\(status)")
        }
    }

    /// Publishes `message`, then a card, and waits for the phone's events to show the card:
    /// what the message left by then is all it will leave. The events and `/v1/status`.
    static func publishThenACard(
        _ message: (String, String), port: Int, db: String, directory: TemporaryDirectory
    ) async throws -> (events: [String], status: String) {
        try await MQTTDevicesTests.publish(port: port, [message, ("owntracks/alice/phone/info", #"{"_type":"card","name":"Alice"}"#)])
        var events: [String] = []
        _ = try await BackgroundProcess.waitUntil(timeout: 30) {
            events = try await runWaymark(["history", "--db", db, "--device", "phone", "--kind", "event"]).stdoutLines
            return !events.isEmpty
        }
        let status = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--unix-socket", directory.path("api.sock"), "http://localhost/v1/status"])
        return (events, status.stdout)
    }

    /// What the OwnTracks apps publish retained, and a transition retained as well.
    static func retainedMessages(at time: Int) -> [(String, String)] {
        [
            ("owntracks/alice/phone", NetworkDevicesTests.location(latitude: 47.3, longitude: 8.5, at: time)),
            ("owntracks/alice/phone/info", #"{"_type":"card","name":"Alice","tid":"al"}"#),
            ("owntracks/alice/phone/waypoints",
             #"{"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"Home","lat":47.1,"lon":8.1,"rad":50,"tst":1700000000}]}"#),
            ("owntracks/alice/phone/event",
             #"{"_type":"transition","event":"enter","desc":"Plaza","rid":"plaza","tst":\#(time),"wtst":1700000000,"lat":47.0,"lon":8.0,"acc":5,"t":"c"}"#),
        ]
    }

    @Test func retainedMessagesAreStoredOnceAcrossRestarts() async throws {
        let directory = try TemporaryDirectory()
        let brokerPort = try freeLoopbackPort()
        let configuration = try directory.write("mosquitto.conf", "listener \(brokerPort) 127.0.0.1\nallow_anonymous true\npersistence false\n")
        let broker = try BackgroundProcess(URL(fileURLWithPath: "/usr/sbin/mosquitto"), ["-c", configuration])
        try await broker.whileRunning {
            try #require(try await BackgroundProcess.waitUntil(timeout: 20) { loopbackAccepts(port: brokerPort) }, "\(broker.stderr)")
            let db = directory.path("w.sqlite")
            try #require(try await runWaymark(["devices", "add", "phone", "--user", "alice", "--db", db]).status == 0)
            let start = Int(Date().timeIntervalSince1970) - 600
            func history() async throws -> [String] {
                try await runWaymark(["history", "--db", db, "--device", "phone", "--kind", "fix", "--kind", "event"]).stdoutLines
            }
            var first: [String] = []
            try await MQTTDevicesTests.withDaemon(db: db, directory: directory, brokerPort: brokerPort) { daemon in
                try await Self.publish(port: brokerPort, Self.retainedMessages(at: start), retained: true)
                let arrived = try await BackgroundProcess.waitUntil(timeout: 30) {
                    first = try await history()
                    return first.count == 4
                }
                #expect(arrived, "\(first)\n\(daemon.stderr.suffix(2000))")
            }
            // Twice more: each start subscribes again and the broker sends every retained message again.
            for run in 1...2 {
                try await MQTTDevicesTests.withDaemon(db: db, directory: directory, brokerPort: brokerPort) { daemon in
                    // Published after the subscription: it arrives after what the broker sent again.
                    let marker = NetworkDevicesTests.location(latitude: 47.4, longitude: 8.6, at: start + 60 * run)
                    try await Self.publish(port: brokerPort, [("owntracks/alice/phone", marker)], retained: false)
                    var now: [String] = []
                    let marked = try await BackgroundProcess.waitUntil(timeout: 30) {
                        now = try await history()
                        return now.filter { $0.contains(#""latitude":47.4"#) }.count == run
                    }
                    #expect(marked, "\(now)\n\(daemon.stderr.suffix(2000))")
                    #expect(now.filter { !$0.contains(#""latitude":47.4"#) } == first, "stored again: \(now)")
                    let status = try await runProcess(
                        URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--unix-socket", directory.path("api.sock"), "http://localhost/v1/status"])
                    #expect(status.stdout.contains(#""mqtt.retained-again":4"#), "\(status.stdout)")
                }
            }
        }
    }

    /// Publishes at QoS 1, retained or not, as the app does.
    static func publish(port: Int, _ messages: [(String, String)], retained: Bool) async throws {
        let script = """
            import json, sys
            import paho.mqtt.client as mqtt
            client = mqtt.Client(client_id="alice-phone", clean_session=True)
            client.connect("127.0.0.1", int(sys.argv[1]))
            client.loop_start()
            for topic, payload in json.loads(sys.argv[2]):
                client.publish(topic, payload, qos=1, retain=sys.argv[3] == "1").wait_for_publish()
            client.loop_stop()
            client.disconnect()
            """
        let messages = String(decoding: try JSONSerialization.data(withJSONObject: messages.map { [$0.0, $0.1] }), as: UTF8.self)
        let result = try await runPython(script, ["\(port)", messages, retained ? "1" : "0"])
        try #require(result.status == 0, "paho-mqtt failed: \(result.stderr)")
    }
}
