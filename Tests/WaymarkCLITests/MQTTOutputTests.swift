import Foundation
import Testing
import WaymarkTestSupport

/// MQTT outputs through a real broker (Debian's mosquitto) to a real subscriber (paho-mqtt):
/// each event a CloudEvent on the topic the output's template gives it (docs/outputs.md).
@Suite struct MQTTOutputTests {
    /// A daemon (`NetworkDevicesTests.Rig`), a mosquitto on a free port and a Python consumer
    /// (`script`: its argv[1] is the broker's port, argv[2] the file it writes); `body` runs
    /// while all three do, with the rig, the port and the file.
    static func withBroker(consumer script: String, _ body: (NetworkDevicesTests.Rig, Int, String) async throws -> Void) async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        let brokerPort = try freeLoopbackPort()
        let configuration = try rig.directory.write("mosquitto.conf", "listener \(brokerPort) 127.0.0.1\nallow_anonymous true\npersistence false\n")
        let broker = try BackgroundProcess(URL(fileURLWithPath: "/usr/sbin/mosquitto"), ["-c", configuration])
        let received = rig.directory.path("received.jsonl")
        let consumer = try BackgroundProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, "\(brokerPort)", received])
        try await broker.whileRunning {
            try await consumer.whileRunning {
                try await rig.daemon.whileRunning {
                    _ = try await BackgroundProcess.waitUntil(timeout: 20) { loopbackAccepts(port: brokerPort) }
                    try await body(rig, brokerPort, received)
                }
            }
        }
    }

    /// The consumer's lines once there are `count` (or after 30 s).
    static func lines(_ file: String, count: Int) async throws -> [[String: Any]] {
        var lines: [[String: Any]] = []
        _ = try await BackgroundProcess.waitUntil(timeout: 30) {
            lines = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            return lines.count >= count
        }
        return lines
    }

    @Test func eventsArePublishedOnTheirDevicesTopics() async throws {
        let consumer = """
            import json, sys
            import paho.mqtt.client as mqtt
            def on_message(client, userdata, message):
                with open(sys.argv[2], "a") as out:
                    out.write(json.dumps({"topic": message.topic, "event": json.loads(message.payload)}) + "\\n")
            client = mqtt.Client(client_id="hub", clean_session=True)
            client.on_connect = lambda c, u, f, rc: c.subscribe("waymark/#", qos=1)
            client.on_message = on_message
            client.connect("127.0.0.1", int(sys.argv[1]))
            client.loop_forever()
            """
        try await Self.withBroker(consumer: consumer) { rig, brokerPort, received in
            let socket = ["--socket", rig.directory.path("api.sock")]
            let added = try await runWaymark(["outputs", "add", "hub", "--mqtt", "mqtt://127.0.0.1:\(brokerPort)/waymark/{device}/{kind}"] + socket)
            #expect(added.status == 0, "\(added.stderr)")
            try await Task.sleep(for: .milliseconds(500))  // the consumer's subscription
            let tested = try await runWaymark(["outputs", "test", "hub"] + socket)
            #expect(tested.status == 0 && tested.stdout.contains("hub: delivered in"), "\(tested.stdout)\(tested.stderr)")
            try await WebhookOutputTests.walk(rig)
            let lines = try await Self.lines(received, count: 5)
            #expect(lines.first?["topic"] as? String == "waymark/local/test", "\(lines)")
            let events = lines.dropFirst()
            #expect(events.count == 4, "\(lines)")
            for device in ["phone", "tracker"] {
                let mine = events.filter { $0["topic"] as? String == "waymark/\(device)/region" }
                #expect(mine.compactMap { ($0["event"] as? [String: Any])?["type"] as? String } == ["org.waymark.region.enter", "org.waymark.region.exit"])
            }
            let ids = events.compactMap { ($0["event"] as? [String: Any])?["id"] as? String }
            #expect(Set(ids) == Set(try await WebhookOutputTests.expectedIDs(db: rig.db)))
            let listed = try await runWaymark(["outputs", "list"] + socket)
            #expect(listed.stdout.contains("hub\tmqtt mqtt://127.0.0.1:\(brokerPort)/waymark/{device}/{kind}"), "\(listed.stdout)")
        }
    }

    /// Home Assistant's OwnTracks integration listens on `owntracks/+/+/event` and reads a
    /// transition's `_type`, `event` (`enter`/`leave`), `desc`, `lat`, `lon`, `acc`, `tst` and
    /// `t`; the user in the topic is the device's user.
    @Test func inOwnTracksFormatTransitionsArriveAsHomeAssistantReadsThem() async throws {
        let consumer = """
            import json, sys
            import paho.mqtt.client as mqtt
            def on_message(client, userdata, message):
                _, user, device, *rest = message.topic.split("/")
                data = json.loads(message.payload)
                ok = (rest == ["event"] and data.get("_type") == "transition" and data.get("event") in ("enter", "leave")
                      and isinstance(data.get("desc"), str) and isinstance(data.get("tst"), int) and data.get("t") in ("c", "b")
                      and isinstance(data.get("lat"), (int, float)) and isinstance(data.get("lon"), (int, float)) and "acc" in data)
                with open(sys.argv[2], "a") as out:
                    out.write(json.dumps({"user": user, "device": device, "event": data.get("event"), "desc": data.get("desc"), "ok": ok}) + "\\n")
            client = mqtt.Client(client_id="home-assistant", clean_session=True)
            client.on_connect = lambda c, u, f, rc: (c.subscribe("owntracks/+/+", qos=1), c.subscribe("owntracks/+/+/event", qos=1))
            client.on_message = on_message
            client.connect("127.0.0.1", int(sys.argv[1]))
            client.loop_forever()
            """
        try await Self.withBroker(consumer: consumer) { rig, brokerPort, received in
            let socket = ["--socket", rig.directory.path("api.sock")]
            let added = try await runWaymark(["outputs", "add", "ha", "--mqtt", "mqtt://127.0.0.1:\(brokerPort)/owntracks", "--owntracks"] + socket)
            #expect(added.status == 0 && !added.stdout.contains("secret:"), "\(added.stdout)\(added.stderr)")
            try await Task.sleep(for: .milliseconds(500))
            try await WebhookOutputTests.walk(rig)
            let lines = try await Self.lines(received, count: 4)
            #expect(lines.count == 4 && lines.allSatisfy { $0["ok"] as? Bool == true && $0["desc"] as? String == "plaza" }, "\(lines)")
            let phone = lines.filter { $0["device"] as? String == "phone" }
            #expect(phone.map { $0["user"] as? String } == ["alice", "alice"], "the device's user: \(phone)")
            #expect(phone.map { $0["event"] as? String } == ["enter", "leave"])
            #expect(lines.filter { $0["device"] as? String == "tracker" }.map { $0["user"] as? String } == ["tracker", "tracker"])
            let listed = try await runWaymark(["outputs", "list"] + socket)
            #expect(listed.stdout.contains("ha\tmqtt (owntracks) mqtt://127.0.0.1:\(brokerPort)/owntracks"), "\(listed.stdout)")
        }
    }
}
