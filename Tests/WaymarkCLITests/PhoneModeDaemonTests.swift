import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// The mode policy through a real daemon (docs/devices.md, "Batteries"): a phone posting
/// OwnTracks locations with `m` as the apps do, over HTTP (curl) and through a real mosquitto
/// (paho-mqtt), gets `setConfiguration` when it nears a polygon, confirms with `m`, is switched
/// back far away; a still noisy phone is not flapped; a phone that never obeys is reported and
/// still tracked. What the daemon says is read from its replies, `/v1/status`, `waymark devices
/// list` and `waymark history`.
@Suite struct PhoneModeDaemonTests {
    typealias Rig = NetworkDevicesTests.Rig

    /// A 200 m square yard around 47.0 N 8.0 E: a polygon, which a phone cannot watch itself;
    /// and the rig's handlers' plaza, a circle the phone can watch, 14 km away.
    static let yard = """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"yard","properties":{},
        "geometry":{"type":"Polygon","coordinates":[[[7.99868,46.9991],[8.00132,46.9991],[8.00132,47.0009],[7.99868,47.0009],[7.99868,46.9991]]]}},
        {"type":"Feature","id":"plaza","geometry":{"type":"Point","coordinates":[8.1,47.1]},"properties":{"radius":100}}]}
        """
    static let centre = Coordinate(latitude: 47.0, longitude: 8.0)

    /// An OwnTracks location `metres` from the yard's centre towards `azimuth`, as the Android app sends it.
    static func location(metres: Double, azimuth: Double = 270, at seconds: Int, m: Int?, accuracy: Int = 8) -> String {
        let place = Geodesic.destination(from: centre, azimuth: azimuth, distance: metres)
        let mode = m.map { #","m":\#($0)"# } ?? ""
        return #"{"_type":"location","lat":\#(place.latitude),"lon":\#(place.longitude),"tst":\#(seconds),"acc":\#(accuracy),"t":"u","tid":"ph"\#(mode)}"#
    }

    static func headers(_ rig: Rig) -> [String] {
        ["X-Limit-U: alice", "X-Limit-D: phone", "Authorization: Basic " + Data("alice:\(rig.phoneSecret)".utf8).base64EncodedString()]
    }

    /// The `monitoring` of each `setConfiguration` in a reply (or an MQTT command array).
    static func monitoring(in reply: String) throws -> [Int] {
        let commands = try #require(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [[String: Any]], "\(reply)")
        return commands.filter { $0["action"] as? String == "setConfiguration" }.compactMap {
            ($0["configuration"] as? [String: Any])?["monitoring"] as? Int
        }
    }

    /// The phone's `mode` object in the daemon's `/v1/status`.
    static func mode(_ rig: Rig) async throws -> [String: Any] {
        let status = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--unix-socket", rig.directory.path("api.sock"), "http://localhost/v1/status"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any], "\(status.stdout)")
        let devices = try #require(object["devices"] as? [[String: Any]])
        return try #require(devices.first { $0["device"] as? String == "phone" }?["mode"] as? [String: Any], "\(status.stdout)")
    }

    static func devicesList(_ rig: Rig) async throws -> String {
        let list = try await runWaymark(["devices", "list", "--socket", rig.directory.path("api.sock")])
        #expect(list.status == 0, "\(list.stderr)")
        return try #require(list.stdoutLines.first { $0.hasPrefix("phone\t") }, "\(list.stdout)")
    }

    @Test func nearThePolygonThePhoneIsSwitchedToMoveAndBackFarAway() async throws {
        let rig = try await Rig.start(regions: Self.yard)
        try await rig.daemon.whileRunning {
            let start = Int(Date().timeIntervalSince1970) - 3 * 3600
            let far = try await rig.ownTracks(Self.location(metres: 3_000, at: start, m: 1), Self.headers(rig))
            #expect(far.status == 200)
            #expect(try Self.monitoring(in: far.body).isEmpty, "far and in significant mode already: \(far.body)")

            let near = try await rig.ownTracks(Self.location(metres: 400, at: start + 300, m: 1), Self.headers(rig))
            #expect(try Self.monitoring(in: near.body) == [2], "\(near.body)")
            #expect(near.body.contains(#""locatorInterval":10"#) && near.body.contains(#""moveModeLocatorInterval":10"#), "\(near.body)")
            #expect(try await Self.mode(rig)["confirmedAt"] is NSNull)

            let confirmed = try await rig.ownTracks(Self.location(metres: 380, at: start + 310, m: 2), Self.headers(rig))
            #expect(try Self.monitoring(in: confirmed.body).isEmpty, "\(confirmed.body)")
            let mode = try await Self.mode(rig)
            #expect(mode["desired"] as? String == "move" && mode["reported"] as? String == "move", "\(mode)")
            #expect(mode["confirmedAt"] as? String == Timestamp(secondsSince1970: Double(start + 310)).rfc3339, "\(mode)")
            #expect(mode["ignoresCommands"] as? Bool == false)
            let listed = try await Self.devicesList(rig)
            #expect(listed.contains("mode move, confirmed \(Timestamp(secondsSince1970: Double(start + 310)).rfc3339)"), "\(listed)")

            let away = try await rig.ownTracks(Self.location(metres: 3_000, at: start + 3_600, m: 2), Self.headers(rig))
            #expect(try Self.monitoring(in: away.body) == [1], "\(away.body)")
            #expect(try await Self.mode(rig)["desired"] as? String == "significant")
        }
    }

    /// A phone parked inside the yard for half an hour, its fixes wandering tens of metres (a
    /// few far ones that say they are poor), obeying what it is told: one command, none after.
    @Test func aStationaryNoisyPhoneGetsAtMostOneCommand() async throws {
        let rig = try await Rig.start(regions: Self.yard)
        try await rig.daemon.whileRunning {
            var random = SplitMix64(seed: 5)
            let start = Int(Date().timeIntervalSince1970) - 3 * 3600
            var m = 2
            var seconds = 0
            var commands: [Int] = []
            for step in 0..<70 {
                let outlier = step % 23 == 11
                let body = Self.location(
                    metres: outlier ? 600 : Double.random(in: 0...30, using: &random), azimuth: Double.random(in: 0..<360, using: &random),
                    at: start + seconds, m: m, accuracy: outlier ? 900 : Int.random(in: 4...35, using: &random))
                let reply = try await rig.ownTracks(body, Self.headers(rig))
                #expect(reply.status == 200)
                let asked = try Self.monitoring(in: reply.body)
                commands += asked
                m = asked.last ?? m
                seconds += m == 2 ? 10 : 300
            }
            #expect(commands == [1], "\(commands)")
            #expect(try await Self.mode(rig)["confirmedAt"] is String)
            // Every fix is kept but for the three far outliers, which the fix gate may refuse.
            let fixes = try await rig.history(["--device", "phone", "--kind", "fix"])
            #expect((67...70).contains(fixes.count), "\(fixes.count)")
        }
    }

    /// A phone with remote configuration off keeps `m: 1` near the yard: it is asked three
    /// times, a few reports apart, then reported as ignoring commands, and every fix is kept.
    @Test func aPhoneThatNeverObeysIsReportedAndStillTracked() async throws {
        let rig = try await Rig.start(regions: Self.yard)
        try await rig.daemon.whileRunning {
            let start = Int(Date().timeIntervalSince1970) - 3 * 3600
            var askedAt: [Int] = []
            for step in 0..<20 {
                // Pacing along the yard's west edge, never still for long.
                let body = Self.location(metres: 150 + Double(step % 2) * 70, at: start + step * 10, m: 1)
                let reply = try await rig.ownTracks(body, Self.headers(rig))
                #expect(reply.status == 200)
                if try !Self.monitoring(in: reply.body).isEmpty { askedAt.append(step) }
            }
            #expect(askedAt == [0, 4, 8], "\(askedAt)")
            let mode = try await Self.mode(rig)
            #expect(mode["ignoresCommands"] as? Bool == true, "\(mode)")
            #expect(mode["attempts"] as? Int == 3 && mode["reported"] as? String == "significant", "\(mode)")
            #expect(try await Self.devicesList(rig).contains("ignores commands (wants move, phone in significant)"))
            #expect(try await rig.history(["--device", "phone", "--kind", "fix"]).count == 20)
            // The user turns remote configuration on: the phone reports move, and is no longer ignoring.
            _ = try await rig.ownTracks(Self.location(metres: 150, at: start + 300, m: 2), Self.headers(rig))
            #expect(try await Self.mode(rig)["ignoresCommands"] as? Bool == false)
        }
    }

    /// Over MQTT the same commands arrive on the phone's own `cmd` topic, QoS 1, not retained.
    @Test func overMQTTTheCommandArrivesOnTheCommandTopic() async throws {
        let directory = try TemporaryDirectory()
        let brokerPort = try freeLoopbackPort()
        let configuration = try directory.write("mosquitto.conf", "listener \(brokerPort) 127.0.0.1\nallow_anonymous true\npersistence false\n")
        let broker = try BackgroundProcess(URL(fileURLWithPath: "/usr/sbin/mosquitto"), ["-c", configuration])
        try await broker.whileRunning {
            let up = try await BackgroundProcess.waitUntil(timeout: 20) { loopbackAccepts(port: brokerPort) }
            try #require(up, "mosquitto did not start: \(broker.stderr)")
            let db = directory.path("w.sqlite")
            try #require(try await runWaymark(["regions", "import", try directory.write("yard.geojson", Self.yard), "--db", db]).status == 0)
            try #require(try await runWaymark(["devices", "add", "phone", "--user", "alice", "--db", db]).status == 0)
            // The phone's side: subscribed to its command topic, printing each command it gets.
            let script = """
                import json, sys
                import paho.mqtt.client as mqtt
                def received(client, userdata, message):
                    print(json.dumps({"topic": message.topic, "qos": message.qos, "retain": bool(message.retain),
                        "payload": message.payload.decode()}), flush=True)
                client = mqtt.Client(client_id="alice-phone-cmd", clean_session=True)
                client.on_message = received
                client.on_connect = lambda client, userdata, flags, rc: (client.subscribe("owntracks/alice/phone/cmd", qos=1), print("subscribed", flush=True))
                client.connect("127.0.0.1", \(brokerPort))
                client.loop_forever()
                """
            let phone = try BackgroundProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script])
            try await phone.whileRunning {
                let subscribed = try await BackgroundProcess.waitUntil(timeout: 20) { phone.stdout.contains("subscribed") }
                try #require(subscribed, "\(phone.stderr)")
                try await MQTTDevicesTests.withDaemon(db: db, directory: directory, brokerPort: brokerPort) { daemon in
                    let start = Int(Date().timeIntervalSince1970) - 3 * 3600
                    try await MQTTDevicesTests.publish(port: brokerPort, [
                        ("owntracks/alice/phone", Self.location(metres: 3_000, at: start, m: 1)),
                        ("owntracks/alice/phone", Self.location(metres: 400, at: start + 300, m: 1)),
                    ])
                    var commands: [[String: Any]] = []
                    let arrived = try await BackgroundProcess.waitUntil(timeout: 30) {
                        commands = phone.stdout.split(separator: "\n").compactMap {
                            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                        }
                        return try commands.contains { try Self.monitoring(in: $0["payload"] as? String ?? "[]") == [2] }
                    }
                    #expect(arrived, "\(phone.stdout)\n\(daemon.stderr.suffix(2000))")
                    let move = try #require(try commands.first { try Self.monitoring(in: $0["payload"] as? String ?? "[]") == [2] })
                    #expect(move["topic"] as? String == "owntracks/alice/phone/cmd")
                    #expect(move["qos"] as? Int == 1)
                    #expect(move["retain"] as? Bool == false)
                    // Nothing was asked of the far report (already significant): no mode command before the move one.
                    #expect(try commands.flatMap { try Self.monitoring(in: $0["payload"] as? String ?? "[]") } == [2], "\(commands)")
                    let fixes = try await runWaymark(["history", "--db", db, "--device", "phone", "--kind", "fix"]).stdoutLines
                    #expect(fixes.count == 2, "\(fixes)")
                }
            }
        }
    }
}
