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

    @Test func locationsPublishedToTheBrokerReachTheirDevicesHistories() async throws {
        let directory = try TemporaryDirectory()
        let brokerPort = try freeLoopbackPort()
        let configuration = try directory.write(
            "mosquitto.conf", "listener \(brokerPort) 127.0.0.1\nallow_anonymous true\npersistence false\n")
        let broker = try BackgroundProcess(URL(fileURLWithPath: "/usr/sbin/mosquitto"), ["-c", configuration])
        try await broker.whileRunning {
            let up = try await BackgroundProcess.waitUntil(timeout: 20) { loopbackAccepts(port: brokerPort) }
            try #require(up, "mosquitto did not start: \(broker.stderr)")
            let db = directory.path("w.sqlite")
            let regions = try directory.write("plaza.geojson", NetworkDevicesTests.Rig.plaza)
            try #require(try await runWaymark(["regions", "import", regions, "--db", db]).status == 0)
            try #require(try await runWaymark(["devices", "add", "phone", "--user", "alice", "--db", db]).status == 0)
            let daemon = try BackgroundProcess(
                ProjectPaths.waymarkExecutable,
                ["serve", "--gpsd", "127.0.0.1:9", "--db", db, "--socket", directory.path("api.sock"), "--mqtt", "127.0.0.1:\(brokerPort)"],
                currentDirectory: ProjectPaths.repositoryRoot)
            try await daemon.whileRunning {
                let subscribed = try await BackgroundProcess.waitUntil(timeout: 30) { daemon.stderr.contains("MQTT connected") }
                try #require(subscribed, "\(daemon.stderr.suffix(2000))")
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
    }
}
