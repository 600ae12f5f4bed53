import Foundation
import Testing
import WaymarkTestSupport

/// The Home Assistant output publishes each device's place (docs/semantics.md §3.7) as its
/// tracker's state, through a real daemon, a real mosquitto and a paho-mqtt consumer
/// (`MQTTOutputTests.homeAssistantConsumer`).
@Suite struct HomeAssistantPlaceTests {
    /// A city (1 km) with a home (60 m) in its middle, at 47.0 N 8.0 E; the rig's handlers want
    /// a plaza, far away.
    static let cityAndHome = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"city","geometry":{"type":"Point","coordinates":[8.0,47.0]},"properties":{"radius":1000}},
        {"type":"Feature","id":"home","geometry":{"type":"Point","coordinates":[8.0,47.0]},"properties":{"radius":60}},
        {"type":"Feature","id":"plaza","geometry":{"type":"Point","coordinates":[9.0,47.0]},"properties":{"radius":100}}]}
        """

    /// Latitudes a fix every 5 s: two minutes 167 m north of home (in the city), a walk home at
    /// 1.5 m/s, two minutes there, back out, two minutes again.
    static let walk: [Double] = {
        let away = 47.0015
        let there = (1...22).map { 47.0 + 0.0015 * (1 - Double($0) / 22) }
        return Array(repeating: away, count: 24) + there + Array(repeating: 47.0, count: 24) + there.reversed().dropFirst() + [away]
            + Array(repeating: away, count: 24)
    }()

    /// The tracker walks from the city into its home and back out: its state is `city`, `home`,
    /// `city`, and stays so on the broker.
    @Test func aDeviceWalkingHomeAndOutIsCityHomeCity() async throws {
        try await MQTTOutputTests.withBroker(consumer: MQTTOutputTests.homeAssistantConsumer, regions: Self.cityAndHome) { rig, brokerPort, received in
            let socket = ["--socket", rig.directory.path("api.sock")]
            let added = try await runWaymark(
                ["outputs", "add", "hass", "--mqtt", "mqtt://127.0.0.1:\(brokerPort)/waymark", "--home-assistant"] + socket)
            #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
            let start = Int(Date().timeIntervalSince1970) - 900
            for (index, latitude) in Self.walk.enumerated() {
                let sent = try await rig.curl(
                    "/v1/osmand?id=tracker&lat=\(latitude)&lon=8.0&timestamp=\(start + index * 5)&accuracy=5&token=\(rig.trackerSecret)")
                #expect(sent.status == 200, "\(sent.body)")
            }
            let topic = "waymark/device/tracker/state"
            var lines: [[String: Any]] = []
            _ = try await BackgroundProcess.waitUntil(timeout: 30) {
                lines = WebhookOutputTests.received(received)
                return lines.filter { $0["topic"] as? String == topic }.count >= 3
            }
            let states = lines.filter { $0["topic"] as? String == topic }.compactMap { $0["payload"] as? String }
            #expect(states == ["city", "home", "city"], "\(lines.map { "\($0["topic"] ?? "") \($0["payload"] ?? "")" })")
            let config = try #require(lines.first { $0["topic"] as? String == "homeassistant/device_tracker/waymark_tracker/config" })
            #expect((config["config"] as? [String: Any])?["state_topic"] as? String == topic && config["ok"] as? Bool == true, "\(config)")

            // The history has the place events the output published, each after its transition.
            let events = try await rig.history(["--device", "tracker", "--kind", "event"])
            let places = events.filter { $0.hasPrefix(#"{"kind":"place""#) }
            #expect(places.count == 3, "\(events)")
            #expect(places.first?.hasPrefix(#"{"kind":"place","place":"city","previous":null,"#) == true)
            #expect(events.filter { $0.contains(#""region":"home""#) && $0.hasPrefix(#"{"kind":"region""#) }.count == 2, "\(events)")

            // Home Assistant started later reads the latest state from the broker.
            let late = try await runPython(
                """
                import sys, time
                import paho.mqtt.client as mqtt
                seen = []
                client = mqtt.Client(client_id="late", clean_session=True)
                client.on_connect = lambda c, u, f, rc: c.subscribe("\(topic)", qos=1)
                client.on_message = lambda c, u, m: seen.append(m.payload.decode())
                client.connect("127.0.0.1", int(sys.argv[1]))
                client.loop_start()
                time.sleep(2)
                print(seen[-1] if seen else "")
                """, ["\(brokerPort)"])
            #expect(late.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "city", "\(late.stderr)")
        }
    }
}
