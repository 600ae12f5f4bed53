import Foundation
import Testing
import WaymarkTestSupport

/// OwnTracks' MQTT mode through a real broker (Debian's mosquitto on a free port) and a real
/// publisher (paho-mqtt), as the apps publish: QoS 1 to `owntracks/USER/DEVICE`.
@Suite struct MQTTDevicesTests {
    /// Publishes `messages` (topic, payload) at QoS 1 and waits for the broker's acknowledgements.
    static func publish(port: Int, _ messages: [(String, String)]) async throws {
        let script = """
            import json, sys
            import paho.mqtt.client as mqtt
            client = mqtt.Client(client_id="phone-app", clean_session=True)
            client.connect("127.0.0.1", \(port))
            client.loop_start()
            for topic, payload in json.load(sys.stdin):
                client.publish(topic, payload, qos=1).wait_for_publish()
            client.loop_stop()
            client.disconnect()
            """
        let directory = try TemporaryDirectory()
        let input = try directory.write("messages.json", String(decoding: try JSONSerialization.data(withJSONObject: messages.map { [$0.0, $0.1] }), as: UTF8.self))
        let result = try await runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "/usr/bin/python3 -c '\(script)' < \(input)"])
        try #require(result.status == 0, "paho-mqtt failed: \(result.stderr)")
    }

    /// A mosquitto on a free port and a daemon subscribed to it, with the plaza region and the
    /// device `phone` of user `alice`; `body` runs while both do.
    static func withBrokerAndDaemon(
        _ body: (_ brokerPort: Int, _ db: String, _ directory: TemporaryDirectory, _ daemon: BackgroundProcess) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        let brokerPort = try freeLoopbackPort()
        let configuration = try directory.write(
            "mosquitto.conf", "listener \(brokerPort) 127.0.0.1\nallow_anonymous true\npersistence false\n")
        let broker = try BackgroundProcess(URL(fileURLWithPath: "/usr/sbin/mosquitto"), ["-c", configuration])
        try await broker.whileRunning {
            let up = try await BackgroundProcess.waitUntil(timeout: 20) { loopbackAccepts(port: brokerPort) }
            try #require(up, "mosquitto did not start: \(broker.stderr)")
            let db = directory.path("w.sqlite")
            let regions = try directory.write("plaza.geojson", OwnTracksMessagesTests.regions)
            try #require(try await runWaymark(["regions", "import", regions, "--db", db]).status == 0)
            try #require(try await runWaymark(["devices", "add", "phone", "--user", "alice", "--db", db]).status == 0)
            try await withDaemon(db: db, directory: directory, brokerPort: brokerPort) { daemon in
                try await body(brokerPort, db, directory, daemon)
            }
        }
    }

    /// A daemon on `db` subscribed to the broker on `brokerPort`; `body` runs once it is.
    static func withDaemon(
        db: String, directory: TemporaryDirectory, brokerPort: Int, _ body: (BackgroundProcess) async throws -> Void
    ) async throws {
        let daemon = try BackgroundProcess(
            ProjectPaths.waymarkExecutable,
            ["serve", "--gpsd", "127.0.0.1:9", "--db", db, "--socket", directory.path("api.sock"), "--mqtt", "127.0.0.1:\(brokerPort)"],
            currentDirectory: ProjectPaths.repositoryRoot)
        try await daemon.whileRunning {
            let subscribed = try await BackgroundProcess.waitUntil(timeout: 30) { daemon.stderr.contains("MQTT connected") }
            try #require(subscribed, "\(daemon.stderr.suffix(2000))")
            try await body(daemon)
        }
    }

    @Test func locationsPublishedToTheBrokerReachTheirDevicesHistories() async throws {
        try await Self.withBrokerAndDaemon { brokerPort, db, directory, daemon in
                let start = Int(Date().timeIntervalSince1970) - 600
                let path = [(47.002, 8.0), (47.0, 8.0), (47.0001, 8.0), (47.0, 8.0001), (47.0, 8.0)]
                var messages = path.enumerated().map { index, point in
                    ("owntracks/alice/phone", NetworkDevicesTests.location(latitude: point.0, longitude: point.1, at: start + index * 30))
                }
                // Each refused without harm: a device Waymark does not know, another user's topic, a bad body.
                messages += [
                    ("owntracks/bob/stranger", NetworkDevicesTests.location(latitude: 47, longitude: 8, at: start)),
                    ("owntracks/bob/phone", NetworkDevicesTests.location(latitude: 47, longitude: 8, at: start + 500)),
                    ("owntracks/alice/phone", "{\"_type\":\"location\",\"lat\":91}"),
                ]
                try await Self.publish(port: brokerPort, messages)

                var fixes: [String] = []
                let arrived = try await BackgroundProcess.waitUntil(timeout: 30) {
                    fixes = try await runWaymark(["history", "--db", db, "--device", "phone", "--kind", "fix"]).stdoutLines
                    return fixes.count >= 5
                }
                #expect(arrived && fixes.count == 5, "\(fixes)\n\(daemon.stderr.suffix(2000))")
                let events = try await runWaymark(["history", "--db", db, "--device", "phone", "--kind", "event"]).stdoutLines
                #expect(events.contains { $0.contains(#""transition":"enter","region":"plaza""#) }, "\(events)")
                let status = try await runProcess(
                    URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--unix-socket", directory.path("api.sock"), "http://localhost/v1/status"])
                #expect(status.stdout.contains(#""refused":{"forbidden":1,"owntracks.out-of-range":1}"#), "\(status.stdout)")
                #expect(status.stdout.contains(#""mqtt.unknown-device":1"#), "\(status.stdout)")
        }
    }

    @Test func theAppsOtherMessagesAndItsLastWillArriveThroughTheBroker() async throws {
        try await Self.withBrokerAndDaemon { brokerPort, db, _, daemon in
            let start = Int(Date().timeIntervalSince1970) - 600
            let door = OwnTracksMessagesTests.door
            // As the app connects: a last will on its own topic, then what it publishes on the
            // subtopics; then the connection drops without a DISCONNECT (the process is killed),
            // so the broker publishes the will.
            let script = """
                import json, os, signal
                import paho.mqtt.client as mqtt
                client = mqtt.Client(client_id="alice-phone", clean_session=False)
                client.will_set("owntracks/alice/phone", json.dumps({"_type": "lwt", "tst": \(start)}), qos=1)
                client.connect("127.0.0.1", \(brokerPort))
                client.loop_start()
                for topic, payload in [
                    ("owntracks/alice/phone", json.dumps({"_type": "location", "lat": 47.002, "lon": 8.0, "tst": \(start), "acc": 5})),
                    ("owntracks/alice/phone/event", json.dumps({"_type": "transition", "event": "enter", "desc": "Plaza", "rid": "plaza",
                        "tst": \(start + 30), "wtst": 1700000000, "lat": 47.0, "lon": 8.0, "acc": 5, "t": "c"})),
                    ("owntracks/alice/phone/waypoints", json.dumps({"_type": "waypoints", "waypoints": [
                        {"_type": "waypoint", "desc": "Home", "lat": 47.1, "lon": 8.1, "rad": 50, "tst": 1700000000}]})),
                    ("owntracks/alice/phone/beacon", json.dumps({"_type": "beacon", "uuid": "\(door)", "major": 2, "minor": 7,
                        "tst": \(start + 40), "rssi": -70, "acc": -1, "prox": 0})),
                    ("owntracks/alice/phone/info", json.dumps({"_type": "card", "name": "Alice"})),
                ]:
                    client.publish(topic, payload, qos=1).wait_for_publish()
                os.kill(os.getpid(), signal.SIGKILL)
                """
            let killed = try await runPython(script)
            #expect(killed.status != 0, "the publisher was meant to die: \(killed.stderr)")
            var kinds: [String] = []
            let arrived = try await BackgroundProcess.waitUntil(timeout: 30) {
                kinds = try await runWaymark(["history", "--db", db, "--device", "phone", "--kind", "event"]).stdoutLines.compactMap { line in
                    (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["kind"] as? String
                }
                return kinds.contains("reportedOffline")
            }
            #expect(arrived, "no last will recorded: \(kinds)\n\(daemon.stderr.suffix(2000))")
            // The phone's entry of the plaza (a 100 m circle it watches as it is) is also Waymark's
            // own, with the place it moved (docs/devices.md, "The phone's transitions as evidence").
            #expect(
                kinds.sorted() == ["beacon", "place", "region", "reportedCard", "reportedOffline", "reportedRegion", "reportedWaypoint"],
                "\(kinds)")
        }
    }
}
