import Foundation
import Testing
import WaymarkTestSupport

/// MQTT outputs through a real broker (Debian's mosquitto) to a real subscriber (paho-mqtt):
/// each event a CloudEvent on the topic the output's template gives it (docs/outputs.md).
@Suite struct MQTTOutputTests {
    @Test func eventsArePublishedOnTheirDevicesTopics() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        let brokerPort = try freeLoopbackPort()
        let configuration = try rig.directory.write("mosquitto.conf", "listener \(brokerPort) 127.0.0.1\nallow_anonymous true\npersistence false\n")
        let broker = try BackgroundProcess(URL(fileURLWithPath: "/usr/sbin/mosquitto"), ["-c", configuration])
        let received = rig.directory.path("received.jsonl")
        let subscriber = try BackgroundProcess(
            URL(fileURLWithPath: "/usr/bin/python3"),
            ["-c", """
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
            """, "\(brokerPort)", received])
        try await broker.whileRunning {
            try await subscriber.whileRunning {
                try await rig.daemon.whileRunning {
                    _ = try await BackgroundProcess.waitUntil(timeout: 20) { loopbackAccepts(port: brokerPort) }
                    let added = try await runWaymark([
                        "outputs", "add", "hub", "--mqtt", "mqtt://127.0.0.1:\(brokerPort)/waymark/{device}/{kind}",
                        "--socket", rig.directory.path("api.sock"),
                    ])
                    #expect(added.status == 0, "\(added.stderr)")
                    try await Task.sleep(for: .milliseconds(500))  // the subscriber's subscription
                    let tested = try await runWaymark(["outputs", "test", "hub", "--socket", rig.directory.path("api.sock")])
                    #expect(tested.status == 0 && tested.stdout.contains("hub: delivered in"), "\(tested.stdout)\(tested.stderr)")
                    try await WebhookOutputTests.walk(rig)
                    var lines: [[String: Any]] = []
                    _ = try await BackgroundProcess.waitUntil(timeout: 30) {
                        lines = ((try? String(contentsOfFile: received, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                        }
                        return lines.count >= 5
                    }
                    #expect(lines.first?["topic"] as? String == "waymark/local/test", "\(lines)")
                    let events = lines.dropFirst()
                    #expect(events.count == 4, "\(lines)")
                    for device in ["phone", "tracker"] {
                        let mine = events.filter { $0["topic"] as? String == "waymark/\(device)/region" }
                        #expect(mine.compactMap { ($0["event"] as? [String: Any])?["type"] as? String } == ["org.waymark.region.enter", "org.waymark.region.exit"])
                    }
                    let ids = events.compactMap { ($0["event"] as? [String: Any])?["id"] as? String }
                    #expect(Set(ids) == Set(try await WebhookOutputTests.expectedIDs(db: rig.db)))
                    let listed = try await runWaymark(["outputs", "list", "--socket", rig.directory.path("api.sock")])
                    #expect(listed.stdout.contains("hub\tmqtt mqtt://127.0.0.1:\(brokerPort)/waymark/{device}/{kind}"), "\(listed.stdout)")
                }
            }
        }
    }
}
