import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// Phones and trackers through the network listener of a real daemon (docs/devices.md), sent by
/// curl as the OwnTracks app and OsmAnd/Traccar clients send them; what was stored is read back
/// with `waymark history`.
@Suite struct NetworkDevicesTests {
    /// A daemon with two devices and one circle region, listening on a free port.
    struct Rig {
        let directory: TemporaryDirectory
        let db: String
        let port: Int
        let phoneSecret: String
        let trackerSecret: String
        let daemon: BackgroundProcess

        static let plaza = """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"plaza",
            "geometry":{"type":"Point","coordinates":[8.0,47.0]},"properties":{"radius":100}}]}
            """

        static func start(
            regions geoJSON: String = plaza, _ extra: (TemporaryDirectory) throws -> [String] = { _ in [] }
        ) async throws -> Rig {
            let directory = try TemporaryDirectory()
            let db = directory.path("w.sqlite")
            let regions = try directory.write("regions.geojson", geoJSON)
            try #require(try await runWaymark(["regions", "import", regions, "--db", db]).status == 0)
            let phone = try await runWaymark(["devices", "add", "phone", "--user", "alice", "--db", db])
            let tracker = try await runWaymark(["devices", "add", "tracker", "--db", db])
            let phoneSecret = try #require(DevicesCommandTests.secret(in: phone.stdout))
            let trackerSecret = try #require(DevicesCommandTests.secret(in: tracker.stdout))
            // One handler for the phone's events only, one for every device's.
            for (name, devices) in [("phone-log", ["--device", "phone"]), ("all-log", [])] {
                let added = try await runWaymark(
                    ["handlers", "add", name, "--exec", HandlerScenario.handlerPath, "--regions", "plaza", "--db", db] + devices
                        + ["--", "--out", directory.path("\(name).jsonl")])
                try #require(added.status == 0, "\(added.stderr)")
            }
            let port = try freeLoopbackPort()
            let daemon = try BackgroundProcess(
                ProjectPaths.waymarkExecutable,
                ["serve", "--gpsd", "127.0.0.1:9", "--db", db, "--socket", directory.path("api.sock"), "--listen", "127.0.0.1:\(port)"]
                    + (try extra(directory)),
                currentDirectory: ProjectPaths.repositoryRoot)
            let listening = try await BackgroundProcess.waitUntil(timeout: 30) { loopbackAccepts(port: port) }
            try #require(listening, "the device listener never opened: \(daemon.stderr.suffix(2000))")
            return Rig(directory: directory, db: db, port: port, phoneSecret: phoneSecret, trackerSecret: trackerSecret, daemon: daemon)
        }

        /// (status, body) of a curl request to the listener.
        func curl(_ path: String, _ arguments: [String] = []) async throws -> (status: Int, body: String) {
            let result = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/curl"),
                ["--silent", "--show-error", "--max-time", "30", "--write-out", "\n%{http_code}"] + arguments + ["http://127.0.0.1:\(port)\(path)"])
            var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let status = Int(lines.popLast() ?? "") ?? -1
            return (status, lines.joined(separator: "\n"))
        }

        func ownTracks(_ body: String, _ headers: [String]) async throws -> (status: Int, body: String) {
            try await curl("/v1/owntracks", ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body] + headers.flatMap { ["-H", $0] })
        }

        func history(_ arguments: [String]) async throws -> [String] {
            try await runWaymark(["history", "--db", db] + arguments).stdoutLines
        }
    }

    static func location(latitude: Double, longitude: Double, at seconds: Int, topic: String? = nil) -> String {
        var body = #"{"_type":"location","lat":\#(latitude),"lon":\#(longitude),"tst":\#(seconds),"acc":5,"vel":4,"batt":80,"t":"u","tid":"ph""#
        if let topic { body += #","topic":"\#(topic)""# }
        return body + "}"
    }

    @Test func twoDevicesCrossingTheSameRegionGetTheirOwnEvents() async throws {
        // The phone's mode is not steered here: its locations carry no `m`, which would be
        // answered with mode commands (PhoneModeDaemonTests); the replies checked are the regions'.
        let rig = try await Rig.start { directory in
            ["--config", try directory.write("waymark.yaml", "devices:\n  per_device:\n    phone: {power_policy: off}\n")]
        }
        try await rig.daemon.whileRunning {
            let start = Int(Date().timeIntervalSince1970) - 600
            let path = [(47.002, 8.0), (47.0, 8.0), (47.0001, 8.0), (47.0, 8.0001), (47.0, 8.0)]
            let android = ["X-Limit-U: alice", "X-Limit-D: phone", "Authorization: Basic " + Data("alice:\(rig.phoneSecret)".utf8).base64EncodedString()]
            for (index, point) in path.enumerated() {
                let time = start + index * 30
                // The phone as the Android app sends it; the tracker as Traccar Client does (OsmAnd protocol, token in the URL).
                let phone = try await rig.ownTracks(Self.location(latitude: point.0, longitude: point.1, at: time), android)
                #expect(phone.status == 200, "\(phone.body)")
                if index == 0 {
                    #expect(phone.body.contains(#""action":"setWaypoints""#) && phone.body.contains(#""rid":"plaza""#), "\(phone.body)")
                } else {
                    #expect(phone.body == "[]")
                }
                let tracker = try await rig.curl("/v1/osmand?id=tracker&lat=\(point.0)&lon=\(point.1)&timestamp=\(time)&speed=2&accuracy=5&token=\(rig.trackerSecret)")
                #expect(tracker.status == 200, "\(tracker.body)")
            }
            let phoneFixes = try await rig.history(["--device", "phone", "--kind", "fix"])
            #expect(phoneFixes.count == 5, "\(phoneFixes)")
            #expect(phoneFixes.allSatisfy { $0.hasSuffix(#","source":"network","device":"phone"}"#) })
            #expect(phoneFixes.first?.contains(#""speed":1.1111111111111112"#) == true, "vel is km/h: \(phoneFixes.first ?? "")")
            let trackerFixes = try await rig.history(["--device", "tracker", "--kind", "fix"])
            #expect(trackerFixes.count == 5)
            #expect(trackerFixes.first?.contains(#""speed":1.028888888888889"#) == true, "speed is knots: \(trackerFixes.first ?? "")")
            for device in ["phone", "tracker"] {
                let events = try await rig.history(["--device", device, "--kind", "event"])
                #expect(events.filter { $0.contains(#""transition":"enter","region":"plaza""#) }.count == 1, "\(device): \(events)")
                #expect(events.allSatisfy { $0.hasSuffix(#""device":"\#(device)"}"#) })
            }
            // The local receiver (no gpsd here) recorded only its gaps.
            #expect(try await rig.history(["--device", "local", "--kind", "fix", "--kind", "event"]).isEmpty)

            // Handlers: one subscribed to the phone never sees the tracker's events.
            func enters(_ handler: String) async throws -> [String] {
                var devices: [String] = []
                _ = try await BackgroundProcess.waitUntil(timeout: 30) {
                    let lines = ((try? String(contentsOfFile: rig.directory.path("\(handler).jsonl"), encoding: .utf8)) ?? "").split(separator: "\n")
                    devices = lines.compactMap { line -> String? in
                        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                            let event = object["event"] as? [String: Any], event["transition"] as? String == "enter"
                        else { return nil }
                        return object["device"] as? String
                    }.sorted()
                    return devices.count >= (handler == "all-log" ? 2 : 1)
                }
                return devices
            }
            // Both devices' events reached the handler for all of them first, so a tracker
            // event for the phone's handler would have been delivered by now too.
            #expect(try await enters("all-log") == ["phone", "tracker"])
            #expect(try await enters("phone-log") == ["phone"])
        }
    }

    @Test func iOSSendsTheTopicAndABearerToken() async throws {
        let rig = try await Rig.start()
        try await rig.daemon.whileRunning {
            let time = Int(Date().timeIntervalSince1970) - 60
            let batch = "[" + Self.location(latitude: 47.3, longitude: 8.5, at: time, topic: "owntracks/alice/phone")
                + #",{"_type":"transition","event":"leave","desc":"Plaza","rid":"plaza","lat":47.3,"lon":8.5,"tst":\#(time),"wtst":1700000000,"acc":5,"t":"c","tid":"ph"}"#
                + #",{"_type":"lwt","tst":\#(time)},{"_type":"card","name":"Alice"},{"_type":"status","android":{}}]"#
            let sent = try await rig.ownTracks(batch, ["Authorization: Bearer \(rig.phoneSecret)"])
            #expect(sent.status == 200, "\(sent.body)")
            #expect(try await rig.history(["--device", "phone", "--kind", "fix"]).count == 1)
            // The phone's own view of the crossing, stored as it reported it.
            let reported = try await rig.history(["--device", "phone", "--kind", "event"])
            #expect(
                reported.first ==
                #"{"kind":"reportedRegion","transition":"exit","region":"plaza","time":"\#(Timestamp(secondsSince1970: Double(time)).rfc3339)","latitude":47.3,"longitude":8.5,"description":"Plaza","trigger":"c","device":"phone"}"#,
                "\(reported)")
            // The last will and the card are recorded as they arrived (OwnTracksMessagesTests has the details).
            #expect(reported.dropFirst().compactMap { $0.split(separator: ",").first }.sorted() == [#"{"kind":"reportedCard""#, #"{"kind":"reportedOffline""#], "\(reported)")
            // The topic names another device: refused, nothing stored.
            let other = try await rig.ownTracks(
                Self.location(latitude: 47.3, longitude: 8.5, at: time + 10, topic: "owntracks/alice/tracker"),
                ["Authorization: Bearer \(rig.phoneSecret)"])
            #expect(other.status == 403, "\(other.body)")
            #expect(try await rig.history(["--device", "tracker"]).isEmpty)
        }
    }

    @Test func refusedRequestsStoreNothing() async throws {
        let rig = try await Rig.start()
        try await rig.daemon.whileRunning {
            let time = Int(Date().timeIntervalSince1970) - 60
            let body = Self.location(latitude: 47.3, longitude: 8.5, at: time)
            let basic = { (user: String, secret: String) in "Authorization: Basic " + Data("\(user):\(secret)".utf8).base64EncodedString() }

            let anonymous = try await rig.ownTracks(body, ["X-Limit-D: phone"])
            #expect(anonymous.status == 401 && anonymous.body.contains(#""code":"unauthorized""#), "\(anonymous.body)")
            let wrong = try await rig.ownTracks(body, ["X-Limit-D: phone", basic("alice", rig.trackerSecret)])
            #expect(wrong.status == 401, "\(wrong.body)")
            let otherDevice = try await rig.ownTracks(body, ["X-Limit-D: phone", "Authorization: Bearer \(rig.trackerSecret)"])
            #expect(otherDevice.status == 403, "\(otherDevice.body)")
            let otherUser = try await rig.ownTracks(body, ["X-Limit-U: bob", "X-Limit-D: phone", basic("alice", rig.phoneSecret)])
            #expect(otherUser.status == 403, "\(otherUser.body)")
            // Malformed bodies are 400s naming the place, once authenticated.
            let malformed = try await rig.ownTracks("{\"_type\":\"location\",\n\"lat\":47.3,,}", ["Authorization: Bearer \(rig.phoneSecret)"])
            #expect(malformed.status == 400, "\(malformed.body)")
            #expect(malformed.body.contains(#""line":2"#) && malformed.body.contains("owntracks.json-syntax"), "\(malformed.body)")
            let outOfRange = try await rig.ownTracks(Self.location(latitude: 91, longitude: 8.5, at: time), ["Authorization: Bearer \(rig.phoneSecret)"])
            #expect(outOfRange.status == 400 && outOfRange.body.contains(#""field":"lat""#), "\(outOfRange.body)")
            let oversized = try await rig.ownTracks(String(repeating: " ", count: 70_000) + body, ["Authorization: Bearer \(rig.phoneSecret)"])
            #expect(oversized.status == 413, "\(oversized.body)")
            let osmand = try await rig.curl("/v1/osmand?id=tracker&lat=abc&lon=8&timestamp=\(time)&token=\(rig.trackerSecret)")
            #expect(osmand.status == 400 && osmand.body.contains(#""parameter":"lat""#), "\(osmand.body)")
            let osmandAnonymous = try await rig.curl("/v1/osmand?id=tracker&lat=47&lon=8&timestamp=\(time)")
            #expect(osmandAnonymous.status == 401)
            let metres = try await rig.curl("/v1/osmand?id=tracker&lat=47&lon=8&timestamp=\(time - 30)&speed=3&speedunit=mps&token=\(rig.trackerSecret)")
            #expect(metres.status == 200)
            #expect(try await rig.history(["--device", "tracker", "--kind", "fix"]).first?.contains(#""speed":3,"#) == true)
            let osmandOther = try await rig.curl("/v1/osmand?id=phone&lat=47&lon=8&timestamp=\(time)&token=\(rig.trackerSecret)")
            #expect(osmandOther.status == 403)

            #expect(try await rig.history(["--device", "phone"]).isEmpty, "a refused request stored something")
            // The one accepted fix, and the place it establishes: in the plaza (docs/semantics.md §3.7).
            #expect(try await rig.history(["--device", "tracker"]).count == 2, "a refused request stored something")
            // The daemon still serves the devices after all that.
            let fine = try await rig.curl("/v1/osmand", ["-X", "POST", "--data", "id=tracker&lat=47&lon=8&timestamp=\(time)000&token=ignored", "-H", "Authorization: Bearer \(rig.trackerSecret)"])
            #expect(fine.status == 200, "\(fine.body)")
            #expect(try await rig.history(["--device", "tracker"]).count == 3)

            // Status and metrics count each device's fixes and refusals by reason; refusals
            // before authentication under "-", never under a name a stranger claimed.
            let status = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--unix-socket", rig.directory.path("api.sock"), "http://localhost/v1/status"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
            let devices = try #require(object["devices"] as? [[String: Any]])
            let byName = Dictionary(uniqueKeysWithValues: devices.map { ($0["device"] as? String ?? "?", $0) })
            #expect(Set(byName.keys) == ["-", "phone", "tracker"], "\(devices)")
            #expect((byName["tracker"]?["counters"] as? [String: Int])?["fixesRecorded"] == 2)
            #expect((byName["tracker"]?["refused"] as? [String: Int]) == ["osmand.invalid-value": 1])
            #expect((byName["phone"]?["refused"] as? [String: Int]) == ["owntracks.json-syntax": 1, "owntracks.out-of-range": 1, "forbidden": 1])
            #expect((byName["-"]?["refused"] as? [String: Int]) == ["unauthorized": 3, "forbidden": 2])
            let metrics = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--unix-socket", rig.directory.path("api.sock"), "http://localhost/metrics"])
            #expect(metrics.stdout.contains("waymark_device_fixes_recorded_total{device=\"tracker\"} 2"), "\(metrics.stdout)")
            #expect(metrics.stdout.contains("waymark_device_requests_refused_total{device=\"-\",reason=\"unauthorized\"} 3"))
        }
    }

    /// A self-signed certificate for 127.0.0.1, made by openssl: (certificate, key) paths.
    static func certificate(in directory: TemporaryDirectory) async throws -> (String, String) {
        let (certificate, key) = (directory.path("cert.pem"), directory.path("key.pem"))
        let made = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate])
        try #require(made.status == 0, "\(made.stderr)")
        return (certificate, key)
    }

    @Test func withACertificateTheListenerSpeaksHTTPSOnly() async throws {
        let holder = try TemporaryDirectory()
        let (certificate, key) = try await Self.certificate(in: holder)
        let rig = try await Rig.start { _ in ["--tls-certificate", certificate, "--tls-key", key] }
        try await rig.daemon.whileRunning {
            let time = Int(Date().timeIntervalSince1970) - 60
            let url = "https://127.0.0.1:\(rig.port)/v1/osmand?id=tracker&lat=47&lon=8&timestamp=\(time)&token=\(rig.trackerSecret)"
            let secure = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--cacert", certificate, "--write-out", "%{http_code}", url])
            #expect(secure.stdout == "200", "\(secure.stdout)\(secure.stderr)")
            let plain = try await rig.curl("/v1/osmand?id=tracker&lat=47&lon=8&timestamp=\(time + 1)&token=\(rig.trackerSecret)")
            #expect(plain.status != 200)
            #expect(try await rig.history(["--device", "tracker", "--kind", "fix"]).count == 1)
        }
    }

    @Test func anUnreadableCertificateStopsTheDaemonNamingTheFile() async throws {
        let directory = try TemporaryDirectory()
        let bogus = try directory.write("cert.pem", "not a certificate\n")
        let result = try await runWaymark(
            ["serve", "--gpsd", "127.0.0.1:9", "--db", directory.path("w.sqlite"), "--socket", directory.path("api.sock"),
             "--listen", "127.0.0.1:0", "--tls-certificate", bogus, "--tls-key", bogus])
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(bogus): "), "\(result.stderr)")
        let unpaired = try await runWaymark(["serve", "--listen", ":0", "--tls-certificate", bogus])
        #expect(unpaired.status != 0 && unpaired.stderr.contains("--tls-certificate and --tls-key go together"), "\(unpaired.stderr)")
    }

    @Test("a client that trickles its body, or stops sending it, is cut off", arguments: [true, false])
    func aSlowBodyIsCutOff(trickles: Bool) async throws {
        let rig = try await Rig.start()
        try await rig.daemon.whileRunning {
            // Promise 100 bytes and send one every half second (or one, then nothing): the
            // listener answers 408 once its body timeout (10 s) has passed.
            let started = ContinuousClock.now
            let result = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/python3"),
                ["-c", """
                import socket, threading, time
                s = socket.create_connection(("127.0.0.1", \(rig.port)))
                s.sendall(b"POST /v1/owntracks HTTP/1.1\\r\\nHost: x\\r\\nAuthorization: Bearer \(rig.phoneSecret)\\r\\nContent-Length: 100\\r\\n\\r\\n")
                def trickle():
                    try:
                        for _ in range(100 if \(trickles ? "True" : "False") else 1):
                            s.send(b"x")
                            time.sleep(0.5)
                    except OSError:
                        pass
                threading.Thread(target=trickle, daemon=True).start()
                s.settimeout(25)
                print(s.recv(200).split(b"\\r\\n")[0].decode())
                """])
            #expect(result.stdout.hasPrefix("HTTP/1.1 408"), "\(result.stdout)\(result.stderr)")
            #expect(ContinuousClock.now - started < .seconds(24))
        }
    }
}
