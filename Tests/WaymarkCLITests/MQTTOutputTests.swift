import Foundation
import Testing
import WaymarkTestSupport

/// MQTT outputs through a real broker (Debian's mosquitto) to a real subscriber (paho-mqtt):
/// each event a CloudEvent on the topic the output's template gives it (docs/outputs.md).
@Suite struct MQTTOutputTests {
    /// A daemon (`NetworkDevicesTests.Rig`; reading OwnTracks from the broker too when asked),
    /// a mosquitto on a free port and a Python consumer (`script`: its argv[1] is the broker's
    /// port, argv[2] the file it writes); `body` runs while all three do, with the rig, the port
    /// and the file. The daemon monitors `regions` (GeoJSON; the rig's plaza by default).
    static func withBroker(
        consumer script: String, regions: String = NetworkDevicesTests.Rig.plaza, daemonReadsOwnTracks: Bool = false,
        _ body: (NetworkDevicesTests.Rig, Int, String) async throws -> Void
    ) async throws {
        let brokerPort = try freeLoopbackPort()
        let rig = try await NetworkDevicesTests.Rig.start(regions: regions) { _ in daemonReadsOwnTracks ? ["--mqtt", "127.0.0.1:\(brokerPort)"] : [] }
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

    /// The daemon's `/v1/status`.
    static func status(_ rig: NetworkDevicesTests.Rig) async throws -> String {
        try await runProcess(
            URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--unix-socket", rig.directory.path("api.sock"), "http://localhost/v1/status"]
        ).stdout
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

    /// A consumer (argv[1] the broker's port) writing each message on `topics` to the file
    /// argv[2] as a line: its topic and its CloudEvent.
    static func cloudEventsConsumer(topics: String, clientID: String) -> String {
        """
        import json, sys
        import paho.mqtt.client as mqtt
        def on_message(client, userdata, message):
            with open(sys.argv[2], "a") as out:
                out.write(json.dumps({"topic": message.topic, "event": json.loads(message.payload)}) + "\\n")
        client = mqtt.Client(client_id="\(clientID)", clean_session=True)
        client.on_connect = lambda c, u, f, rc: c.subscribe("\(topics)", qos=1)
        client.on_message = on_message
        client.connect("127.0.0.1", int(sys.argv[1]))
        client.loop_forever()
        """
    }

    @Test func eventsArePublishedOnTheirDevicesTopics() async throws {
        try await Self.withBroker(consumer: Self.cloudEventsConsumer(topics: "waymark/#", clientID: "hub")) { rig, brokerPort, received in
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

    /// Home Assistant's OwnTracks integration listens on `owntracks/#`. The consumer applies its
    /// rules (homeassistant/components/owntracks/messages.py): a message without `lat` or `lon`
    /// breaks it; a `location` whose `acc` is absent or 0 is ignored; a transition's `event` is
    /// `enter` or `leave` and `desc` the region. The user in the topic is the device's user. The
    /// daemon also reads OwnTracks from that broker and base topic: it passes over its own messages.
    @Test func inOwnTracksFormatTransitionsAndLocationsArriveAsHomeAssistantReadsThem() async throws {
        let consumer = """
            import json, sys
            import paho.mqtt.client as mqtt
            def on_message(client, userdata, message):
                _, user, device, *rest = message.topic.split("/")
                if user == "nobody":
                    return  # the test's probe
                data = json.loads(message.payload)
                placed = isinstance(data.get("lat"), (int, float)) and isinstance(data.get("lon"), (int, float))
                accurate = isinstance(data.get("acc"), (int, float)) and data["acc"] > 0
                if data.get("_type") == "transition":
                    ok = (rest == ["event"] and data.get("event") in ("enter", "leave") and isinstance(data.get("desc"), str)
                          and isinstance(data.get("tst"), int) and data.get("t") in ("c", "b") and placed and accurate)
                else:
                    ok = rest == [] and data.get("_type") == "location" and placed and accurate and isinstance(data.get("tst"), int)
                with open(sys.argv[2], "a") as out:
                    out.write(json.dumps({"user": user, "device": device, "type": data.get("_type"), "event": data.get("event"),
                                          "desc": data.get("desc"), "tst": data.get("tst"), "ok": ok}) + "\\n")
            client = mqtt.Client(client_id="home-assistant", clean_session=True)
            client.on_connect = lambda c, u, f, rc: c.subscribe("owntracks/#", qos=1)
            client.on_message = on_message
            client.connect("127.0.0.1", int(sys.argv[1]))
            client.loop_forever()
            """
        try await Self.withBroker(consumer: consumer, daemonReadsOwnTracks: true) { rig, brokerPort, received in
            let socket = ["--socket", rig.directory.path("api.sock")]
            // The daemon's reader is subscribed once it refuses a probe for a device it does not know.
            let subscribed = try await BackgroundProcess.waitUntil(timeout: 30) {
                _ = try await runPython(
                    """
                    import sys
                    import paho.mqtt.publish as publish
                    publish.single("owntracks/nobody/probe", '{"_type":"location","lat":1,"lon":2,"tst":1}', qos=1, hostname="127.0.0.1", port=int(sys.argv[1]))
                    """, ["\(brokerPort)"])
                return try await Self.status(rig).contains("mqtt.unknown-device")
            }
            try #require(subscribed, "the daemon never read OwnTracks from the broker: \(rig.daemon.stderr.suffix(2000))")
            let added = try await runWaymark(["outputs", "add", "ha", "--mqtt", "mqtt://127.0.0.1:\(brokerPort)/owntracks", "--owntracks"] + socket)
            #expect(added.status == 0 && !added.stdout.contains("secret:"), "\(added.stdout)\(added.stderr)")
            try await Task.sleep(for: .milliseconds(500))
            try await WebhookOutputTests.walk(rig)
            // Per device: 8 fixes 30 s apart (each outside the other's 10 s) and 2 transitions.
            let lines = try await Self.lines(received, count: 20)
            #expect(lines.count == 20 && lines.allSatisfy { $0["ok"] as? Bool == true }, "\(lines)")
            let transitions = lines.filter { $0["type"] as? String == "transition" }
            #expect(transitions.count == 4 && transitions.allSatisfy { $0["desc"] as? String == "plaza" }, "\(transitions)")
            let phone = transitions.filter { $0["device"] as? String == "phone" }
            #expect(phone.map { $0["user"] as? String } == ["alice", "alice"], "the device's user: \(phone)")
            #expect(phone.map { $0["event"] as? String } == ["enter", "leave"])
            #expect(transitions.filter { $0["device"] as? String == "tracker" }.map { $0["user"] as? String } == ["tracker", "tracker"])
            for device in ["phone", "tracker"] {
                let times = lines.filter { $0["type"] as? String == "location" && $0["device"] as? String == device }.compactMap { $0["tst"] as? Int }
                #expect(times.count == 8 && times == times.sorted(), "\(device): \(times)")
            }
            let listed = try await runWaymark(["outputs", "list"] + socket)
            #expect(listed.stdout.contains("ha\tmqtt (owntracks) mqtt://127.0.0.1:\(brokerPort)/owntracks"), "\(listed.stdout)")
            // Its own 20 messages came back to the daemon's OwnTracks reader and were passed over.
            var status = ""
            _ = try await BackgroundProcess.waitUntil(timeout: 10) {
                status = try await Self.status(rig)
                return status.contains(#""mqtt.own-output":10"#)
            }
            #expect(status.contains(#""mqtt.own-output":10"#), "per device: \(status)")
            for device in ["phone", "tracker"] {
                let fixes = try await runWaymark(["history", "--db", rig.db, "--device", device, "--kind", "fix"]).stdoutLines
                #expect(fixes.count == 8, "\(device): \(fixes)")
                let reported = try await runWaymark(["history", "--db", rig.db, "--device", device, "--kind", "event"]).stdoutLines
                #expect(!reported.contains { $0.contains("reportedRegion") }, "\(reported)")
            }
        }
    }

    /// A consumer standing for Home Assistant: it writes every message on `homeassistant/#` and
    /// `waymark/#` as a line (`topic`, `payload`), and checks each discovery config as Home
    /// Assistant's schemas require (a device tracker's `unique_id`, `json_attributes_topic`,
    /// `state_topic` with the home and not-home payloads, and `device.identifiers`; a presence
    /// sensor's `state_topic`, `device_class`, payloads): `component`, `config`, `ok`.
    static let homeAssistantConsumer = """
        import json, re, sys
        import paho.mqtt.client as mqtt
        def on_message(client, userdata, message):
            entry = {"topic": message.topic, "payload": message.payload.decode()}
            match = re.fullmatch(r"homeassistant/(device_tracker|binary_sensor)/([a-zA-Z0-9_-]+)/config", message.topic)
            if match:
                config = json.loads(message.payload)
                device = config.get("device", {})
                ok = isinstance(config.get("unique_id"), str) and isinstance(device.get("identifiers"), list) and device["identifiers"]
                if match.group(1) == "device_tracker":
                    ok = (ok and isinstance(config.get("json_attributes_topic"), str) and config.get("source_type") == "gps"
                          and isinstance(config.get("state_topic"), str) and config.get("payload_home") == "home"
                          and config.get("payload_not_home") == "not_home")
                else:
                    ok = (ok and config.get("device_class") == "presence" and isinstance(config.get("state_topic"), str)
                          and config.get("payload_on") == "ON" and config.get("payload_off") == "OFF")
                entry.update({"component": match.group(1), "config": config, "ok": bool(ok)})
            with open(sys.argv[2], "a") as out:
                out.write(json.dumps(entry) + "\\n")
        client = mqtt.Client(client_id="home-assistant", clean_session=True)
        client.on_connect = lambda c, u, f, rc: (c.subscribe("homeassistant/#", qos=1), c.subscribe("waymark/#", qos=1))
        client.on_message = on_message
        client.connect("127.0.0.1", int(sys.argv[1]))
        client.loop_forever()
        """

    /// Home Assistant's MQTT discovery: the configs checked (`homeAssistantConsumer`), the topics
    /// they name followed, and a late subscriber that finds the latest of everything retained on
    /// the broker.
    @Test func homeAssistantDiscoveryGivesTrackersAndPresenceSensors() async throws {
        try await Self.withBroker(consumer: Self.homeAssistantConsumer) { rig, brokerPort, received in
            let socket = ["--socket", rig.directory.path("api.sock")]
            let url = "mqtt://127.0.0.1:\(brokerPort)/waymark"
            let added = try await runWaymark(["outputs", "add", "hass", "--mqtt", url, "--home-assistant", "--location-seconds", "0"] + socket)
            #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
            // The region's sensor and its state come when the output starts.
            let announced = try await Self.lines(received, count: 3)
            let sensor = try #require(announced.first { $0["component"] as? String == "binary_sensor" }, "\(announced)")
            #expect(sensor["ok"] as? Bool == true, "\(sensor)")
            let stateTopic = try #require((sensor["config"] as? [String: Any])?["state_topic"] as? String)
            #expect(announced.contains { $0["topic"] as? String == stateTopic && $0["payload"] as? String == "OFF" }, "\(announced)")

            try await WebhookOutputTests.walk(rig)
            // 3 at the start; per device a tracker config, 8 positions and 2 places (the plaza,
            // then none); 4 transitions of 2 messages.
            let lines = try await Self.lines(received, count: 3 + 2 * 11 + 8)
            #expect(lines.count == 33, "\(lines.map { $0["topic"] ?? "" })")
            for device in ["phone", "tracker"] {
                let tracker = try #require(lines.first { $0["topic"] as? String == "homeassistant/device_tracker/waymark_\(device)/config" })
                #expect(tracker["ok"] as? Bool == true, "\(tracker)")
                let attributesTopic = try #require((tracker["config"] as? [String: Any])?["json_attributes_topic"] as? String)
                let positions = lines.filter { $0["topic"] as? String == attributesTopic }.compactMap { line in
                    (line["payload"] as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                }
                #expect(positions.count == 8 && positions.allSatisfy { $0["latitude"] is Double && $0["longitude"] is Double && ($0["gps_accuracy"] as? Int ?? 0) > 0 })
                // The tracker is announced before its first position.
                let configIndex = lines.firstIndex { $0["topic"] as? String == "homeassistant/device_tracker/waymark_\(device)/config" }
                let firstPosition = lines.firstIndex { $0["topic"] as? String == attributesTopic }
                #expect(configIndex! < firstPosition!)
                // Its state is the device's place (HomeAssistantPlaceTests has nested regions).
                let trackerStates = lines.filter { $0["topic"] as? String == "waymark/device/\(device)/state" }.compactMap { $0["payload"] as? String }
                #expect(trackerStates == ["plaza", "not_home"], "\(device)")
            }
            let states = lines.filter { $0["topic"] as? String == stateTopic }.compactMap { $0["payload"] as? String }
            #expect(states.first == "OFF" && states.contains("ON") && states.last == "OFF" && states.count == 5, "\(states)")

            // Home Assistant started later reads it all from the broker.
            let late = try await runPython(
                """
                import json, sys, time
                import paho.mqtt.client as mqtt
                seen = {}
                client = mqtt.Client(client_id="late", clean_session=True)
                client.on_connect = lambda c, u, f, rc: (c.subscribe("homeassistant/#", qos=1), c.subscribe("waymark/#", qos=1))
                client.on_message = lambda c, u, m: seen.update({m.topic: [m.retain, m.payload.decode()]})
                client.connect("127.0.0.1", int(sys.argv[1]))
                client.loop_start()
                time.sleep(2)
                print(json.dumps(seen))
                """, ["\(brokerPort)"])
            let retained = try #require(try JSONSerialization.jsonObject(with: Data(late.stdout.utf8)) as? [String: [Any]], "\(late.stderr)")
            #expect(retained.count == 9, "3 configs, 2 positions, 2 trackers' states, state and attributes: \(retained.keys.sorted())")
            // A live subscriber's copy has MQTT's retain flag clear; a new subscription's is set.
            #expect(retained.values.allSatisfy { $0.first as? Bool == true })
            #expect(retained[stateTopic]?.last as? String == "OFF")
            let listed = try await runWaymark(["outputs", "list"] + socket)
            #expect(listed.stdout.contains("hass\tmqtt (homeassistant) mqtt://127.0.0.1:\(brokerPort)/waymark"), "\(listed.stdout)")
        }
    }
}
