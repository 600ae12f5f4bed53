import Foundation
import Logging
import Testing
import WaymarkCore
import WaymarkStore
import WaymarkTestSupport

/// Issue 48, finding 2: one stored fix with an accuracy, speed or altitude of 1e308 made the
/// MQTT outputs in OwnTracks and Home Assistant format trap, and since the fix stays stored
/// every restart crashed again. The decoders now refuse such numbers, but an old database may
/// hold them: here they are written with the store itself, as such a database would have them,
/// and the real daemon is started on it twice.
@Suite struct ExtremeFixRestartTests {
    /// Each message as a line: its topic and its payload as text (Home Assistant's states are
    /// not JSON).
    static let consumer = """
        import json, sys
        import paho.mqtt.client as mqtt
        def on_message(client, userdata, message):
            with open(sys.argv[2], "a") as out:
                out.write(json.dumps({"topic": message.topic, "payload": message.payload.decode()}) + "\\n")
        client = mqtt.Client(client_id="extreme", clean_session=True)
        client.on_connect = lambda c, u, f, rc: (c.subscribe("owntracks/#", qos=1), c.subscribe("waymark/#", qos=1))
        client.on_message = on_message
        client.connect("127.0.0.1", int(sys.argv[1]))
        client.loop_forever()
        """

    /// The payloads, as objects, of the messages on `topic` received so far.
    static func payloads(_ file: String, topic: String) -> [[String: Any]] {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { line in
            guard let entry = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], entry["topic"] as? String == topic,
                let payload = entry["payload"] as? String
            else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any]
        }
    }

    @Test func aStoredExtremeFixCrashesNoRestartAndBothFormatsPublish() async throws {
        try await MQTTOutputTests.withBroker(consumer: Self.consumer) { rig, brokerPort, received in
            let socket = ["--socket", rig.directory.path("api.sock")]
            for (name, format, base) in [("ot", "--owntracks", "owntracks"), ("hass", "--home-assistant", "waymark")] {
                let added = try await runWaymark(
                    ["outputs", "add", name, "--mqtt", "mqtt://127.0.0.1:\(brokerPort)/\(base)", format, "--location-seconds", "0"] + socket)
                try #require(added.status == 0, "\(added.stdout)\(added.stderr)")
            }
            rig.daemon.send(SIGTERM)
            _ = try await rig.daemon.wait(timeout: 20)

            // What an old database holds: numbers the decoders refuse today.
            let now = Int(Date().timeIntervalSince1970)
            let store = try WaymarkStore(path: rig.db, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
            let here = Coordinate(latitude: 47, longitude: 8)
            let extremes = [
                Fix(time: Timestamp(nanosecondsSince1970: Int64(now - 120) * 1_000_000_000), coordinate: here, altitude: 1e308,
                    horizontalAccuracy: 1e308, speed: 1e308, course: 1e308),
                Fix(time: Timestamp(nanosecondsSince1970: Int64(now - 110) * 1_000_000_000), coordinate: here, altitude: -.infinity,
                    horizontalAccuracy: .greatestFiniteMagnitude, hdop: .nan, speed: .infinity, course: -1e300),
            ]
            _ = try store.recordFixes(extremes, source: "network", device: "tracker")

            for restart in 1...2 {
                let daemon = try BackgroundProcess(
                    ProjectPaths.waymarkExecutable,
                    ["serve", "--gpsd", "127.0.0.1:9", "--db", rig.db, "--listen", "127.0.0.1:\(rig.port)"] + socket,
                    currentDirectory: ProjectPaths.repositoryRoot)
                try await daemon.whileRunning {
                    let listening = try await BackgroundProcess.waitUntil(timeout: 30) { loopbackAccepts(port: rig.port) }
                    try #require(listening, "restart \(restart): \(daemon.stderr.suffix(2000))")
                    // A real fix after the stored ones: each output publishes it.
                    let time = now - 60 + restart
                    let latitude = 47.001 + Double(restart) / 10_000
                    let sent = try await rig.curl("/v1/osmand?id=tracker&lat=\(latitude)&lon=8&timestamp=\(time)&accuracy=5&token=\(rig.trackerSecret)")
                    #expect(sent.status == 200, "\(sent.body)")
                    let published = try await BackgroundProcess.waitUntil(timeout: 30) {
                        Self.payloads(received, topic: "owntracks/tracker/tracker").contains { $0["tst"] as? Int == time }
                            && Self.payloads(received, topic: "waymark/device/tracker/location").contains { ($0["latitude"] as? Double) == latitude }
                    }
                    #expect(published, "restart \(restart): \(daemon.stderr.suffix(2000))")
                    #expect(daemon.isRunning, "restart \(restart) crashed: \(daemon.stderr.suffix(2000))")
                }
            }
            // The stored extremes went out too, without the fields no integer holds.
            let locations = Self.payloads(received, topic: "owntracks/tracker/tracker")
            let huge = try #require(locations.first { $0["tst"] as? Int == now - 120 }, "\(locations)")
            #expect(huge["acc"] == nil && huge["alt"] == nil && huge["vel"] == nil && huge["cog"] == nil, "\(huge)")
            let attributes = Self.payloads(received, topic: "waymark/device/tracker/location")
            #expect(attributes.count >= 4, "\(attributes)")
        }
    }
}
