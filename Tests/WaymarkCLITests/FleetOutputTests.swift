import Foundation
import Testing
import WaymarkTestSupport

/// The fleet's output role (docs/fleet.md): outputs defined on a single daemon, moved in with
/// `fleet import`, delivered by output nodes from the events stream to a real webhook receiver
/// (examples/outputs/webhook_receiver.py, which checks signatures) and a real MQTT broker
/// (mosquitto, read by paho-mqtt), through the SIGKILL of the node delivering the webhook.
@Suite(.serialized) struct FleetOutputTests {
    /// The region events the fleet committed, per device in their order, as the CloudEvents ids
    /// receivers must see (SHA-256 over device, newline, record: docs/outputs.md), by Python.
    static func committedIDs(_ rig: FleetTests.Rig) async throws -> [String: [String]] {
        var byDevice: [String: [String]] = [:]
        for device in rig.devices {
            let records = try await rig.sql(
                "SELECT record FROM events WHERE device = '\(device.name)' AND kind = 'region' ORDER BY sequence, split_part(id, '/', 3)::int")
            let file = try rig.directory.write("records-\(device.name).txt", records.joined(separator: "\n") + "\n")
            let ids = try await runPython(
                """
                import hashlib, sys
                for record in open(sys.argv[2]).read().splitlines():
                    print(hashlib.sha256((sys.argv[1] + "\\n" + record).encode()).hexdigest()[:32])
                """, [device.name, file])
            byDevice[device.name] = ids.stdoutLines
        }
        return byDevice
    }

    /// Each device's ids in the order they first arrived (a redelivery repeats an id; it may
    /// not come before a newer one of its device's).
    static func firstArrivals(_ events: [[String: Any]], subject: (([String: Any]) -> String?)) -> [String: [String]] {
        var seen: Set<String> = []
        var byDevice: [String: [String]] = [:]
        for event in events {
            guard let id = event["id"] as? String, let device = subject(event), seen.insert(id).inserted else { continue }
            byDevice[device, default: []].append(id)
        }
        return byDevice
    }

    @Test func everyEventReachesAWebhookAndABrokerInOrderThroughAKilledOutputNode() async throws {
        let directory = try TemporaryDirectory()
        let (webhookPort, brokerPort) = (try freeLoopbackPort(), try freeLoopbackPort())
        let configuration = try directory.write("mosquitto.conf", "listener \(brokerPort) 127.0.0.1\nallow_anonymous true\npersistence false\n")
        let broker = try BackgroundProcess(URL(fileURLWithPath: "/usr/sbin/mosquitto"), ["-c", configuration])
        let mqttLog = directory.path("mqtt.jsonl")
        let consumer = try BackgroundProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", MQTTOutputTests.cloudEventsConsumer(topics: "fleet/#", clientID: "fleet-hub"), "\(brokerPort)", mqttLog])
        let webhookLog = directory.path("webhook.jsonl")
        var secret = ""
        var rig = try await FleetTests.Rig.start(workers: 1, outputNodes: 2) { db in
            let hub = try await runWaymark(["outputs", "add", "hub", "--webhook", "http://127.0.0.1:\(webhookPort)/hook", "--db", db])
            try #require(hub.status == 0, "\(hub.stderr)")
            secret = try #require(hub.stdoutLines.first { $0.hasPrefix("secret: ") }.map { String($0.dropFirst(8)) })
            let mqtt = try await runWaymark(["outputs", "add", "mqtt-hub", "--mqtt", "mqtt://127.0.0.1:\(brokerPort)/fleet/{device}/{kind}", "--db", db])
            try #require(mqtt.status == 0, "\(mqtt.stderr)")
        }
        let receiver = try WebhookOutputTests.receiver(port: webhookPort, secret: secret, log: webhookLog)
        do {
            try await broker.whileRunning {
                try await consumer.whileRunning {
                    try await receiver.whileRunning {
                        try await WebhookOutputTests.waitForReceiver(receiver, port: webhookPort)
                        try #require(try await BackgroundProcess.waitUntil(timeout: 20) { loopbackAccepts(port: brokerPort) })
                        try await Task.sleep(for: .milliseconds(500))  // the consumer's subscription
                        try await deliverThroughAKill(&rig, receiver: receiver, webhookLog: webhookLog, mqttLog: mqttLog)
                    }
                }
            }
        } catch {
            try? await rig.stop()
            throw error
        }
        try await rig.stop()
    }

    /// The node delivering the webhook is SIGKILLed with a batch in hand: the receiver is
    /// stopped (SIGSTOP) until the node has events unacknowledged and a request in flight, then
    /// the node is killed and the receiver resumed. The other node must take the output over
    /// and deliver that batch again, with the same ids, before anything newer.
    private func deliverThroughAKill(
        _ rig: inout FleetTests.Rig, receiver: BackgroundProcess, webhookLog: String, mqttLog: String
    ) async throws {
        // Each output node takes one of the two outputs.
        let owners = try await ownersOfOutputs(rig)
        #expect(Set(owners.values) == ["output-1", "output-2"], "\(owners)")
        let victimName = try #require(owners["hub"])
        let sender = rig
        let feeding = Task { try await sender.feed(["--batch", "10", "--pause", "0.03"]) }
        let started = try await BackgroundProcess.waitUntil(timeout: 60) { WebhookOutputTests.delivered(webhookLog).count >= 8 }
        try #require(started, "nothing reached the webhook")
        receiver.send(SIGSTOP)
        let inHand: Bool
        do {
            inHand = try await BackgroundProcess.waitUntil(timeout: 30) { [rig] in
                let outputs = try await rig.status()["outputs"] as? [[String: Any]] ?? []
                return outputs.contains { $0["name"] as? String == "hub" && ($0["unacknowledged"] as? Int ?? 0) > 0 }
            }
        } catch {
            receiver.send(SIGCONT)
            throw error
        }
        let victim = try #require(rig.outputNodes[victimName])
        victim.send(SIGKILL)
        rig.outputNodes[victimName] = nil
        _ = try await victim.wait(timeout: 10)
        receiver.send(SIGCONT)
        try #require(inHand, "the webhook's node never had a batch in hand")
        let total = try await feeding.value.fixes
        try await rig.waitForFixes(total)
        try await rig.expectEveryEventPublishedOnce()

        let expected = try await Self.committedIDs(rig)
        let count = expected.values.map(\.count).reduce(0, +)
        #expect(count >= 3 * 10, "\(expected)")
        let all = Set(expected.values.joined())
        _ = try await BackgroundProcess.waitUntil(timeout: 90) {
            Set(WebhookOutputTests.delivered(webhookLog).compactMap { $0["id"] as? String }) == all
        }
        let webhook = WebhookOutputTests.delivered(webhookLog)
        #expect(Set(webhook.compactMap { $0["id"] as? String }) == all, "every event reached the webhook")
        #expect(Self.firstArrivals(webhook) { $0["subject"] as? String } == expected, "each device's events in order")
        #expect(webhook.allSatisfy { ($0["type"] as? String)?.hasPrefix("org.waymark.region.") == true })
        let redelivered = webhook.filter { $0["duplicate"] as? Bool == true }.count
        #expect(webhook.count - redelivered == count, "duplicates are redeliveries of the same id")
        #expect(redelivered >= 1, "the request in flight at the kill reached the receiver and was delivered again")

        let mqtt = try await MQTTOutputTests.lines(mqttLog, count: count)
        let events = mqtt.compactMap { $0["event"] as? [String: Any] }
        #expect(Set(events.compactMap { $0["id"] as? String }) == all, "every event reached the broker")
        #expect(Self.firstArrivals(events) { $0["subject"] as? String } == expected)
        #expect(mqtt.allSatisfy { ($0["topic"] as? String)?.hasSuffix("/region") == true })

        let survivor = ["output-1", "output-2"].first { $0 != victimName }
        let settled = try await BackgroundProcess.waitUntil(timeout: 30) {
            let outputs = try await rig.status()["outputs"] as? [[String: Any]] ?? []
            return outputs.count == 2 && outputs.allSatisfy { $0["owner"] as? String == survivor && $0["pending"] as? Int == 0 }
        }
        let status = try await rig.status()
        #expect(settled, "the survivor delivers both outputs: \(status)")
        print("fleet outputs: \(count) events, \(redelivered) redelivered to the webhook after the SIGKILL")
    }

    /// Home Assistant's and OwnTracks' formats from a fleet: the output node reads who is inside
    /// each region, the regions' names, the devices' users and fixes from PostgreSQL, and publishes
    /// the devices' positions from the fix stream, thinned to one per 20 s (Home Assistant) or
    /// 10 s (OwnTracks) of fix time, never losing a device's last.
    @Test func homeAssistantAndOwnTracksGetPresenceTransitionsAndThinnedPositions() async throws {
        let directory = try TemporaryDirectory()
        let brokerPort = try freeLoopbackPort()
        let configuration = try directory.write("mosquitto.conf", "listener \(brokerPort) 127.0.0.1\nallow_anonymous true\npersistence false\n")
        let broker = try BackgroundProcess(URL(fileURLWithPath: "/usr/sbin/mosquitto"), ["-c", configuration])
        let log = directory.path("mqtt.jsonl")
        let consumer = try BackgroundProcess(
            URL(fileURLWithPath: "/usr/bin/python3"),
            ["-c",
             """
             import json, sys
             import paho.mqtt.client as mqtt
             def on_message(client, userdata, message):
                 with open(sys.argv[2], "a") as out:
                     out.write(json.dumps({"topic": message.topic, "payload": message.payload.decode()}) + "\\n")
             client = mqtt.Client(client_id="home-assistant", clean_session=True)
             client.on_connect = lambda c, u, f, rc: [c.subscribe(t, qos=1) for t in ("homeassistant/#", "hass/#", "owntracks/#")]
             client.on_message = on_message
             client.connect("127.0.0.1", int(sys.argv[1]))
             client.loop_forever()
             """, "\(brokerPort)", log])
        try await broker.whileRunning {
            try await consumer.whileRunning {
                try #require(try await BackgroundProcess.waitUntil(timeout: 20) { loopbackAccepts(port: brokerPort) })
                try await Task.sleep(for: .milliseconds(500))  // the consumer's subscriptions
                let rig = try await FleetTests.Rig.start(workers: 1, outputNodes: 1) { db in
                    for arguments in [
                        ["hass", "--mqtt", "mqtt://127.0.0.1:\(brokerPort)/hass", "--home-assistant", "--location-seconds", "20"],
                        ["tracks", "--mqtt", "mqtt://127.0.0.1:\(brokerPort)/owntracks", "--owntracks"],
                    ] {
                        let added = try await runWaymark(["outputs", "add"] + arguments + ["--db", db])
                        try #require(added.status == 0, "\(added.stderr)")
                    }
                }
                do {
                    try await checkHomeAssistantAndOwnTracks(rig, log: log)
                } catch {
                    try? await rig.stop()
                    throw error
                }
                try await rig.stop()
            }
        }
    }

    private func checkHomeAssistantAndOwnTracks(_ rig: FleetTests.Rig, log: String) async throws {
        let total = try await rig.feed().fixes
        try await rig.waitForFixes(total)
        try await rig.expectEveryEventPublishedOnce()
        let lastFix = Dictionary(
            uniqueKeysWithValues: try await rig.sql("SELECT device || ' ' || to_char(max(time) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM fixes GROUP BY device")
                .map { line in (String(line.split(separator: " ")[0]), String(line.split(separator: " ")[1])) })
        #expect(lastFix.count == 3)
        func lines() -> [(topic: String, payload: String)] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                guard let line = try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] else { return nil }
                return (line["topic"] ?? "", line["payload"] ?? "")
            }
        }
        func positions(of device: String) -> [[String: Any]] {
            lines().filter { $0.topic == "hass/device/\(HomeAssistantID.of(device))/location" }.compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.payload.utf8)) as? [String: Any]
            }
        }
        // The trailing position of each device falls due 20 s after the last one went out.
        let caughtUp = try await BackgroundProcess.waitUntil(timeout: 90) {
            lastFix.allSatisfy { device, time in positions(of: device).last?["time"] as? String == time }
        }
        #expect(caughtUp, "every device's last fix is its last position: \(lastFix)")
        let seen = lines()

        // Home Assistant: a presence sensor for each region, a tracker for each device before its
        // first position, positions at least 20 s of fix time apart but for the trailing one.
        let regions = try await rig.sql("SELECT identifier FROM regions ORDER BY identifier")
        #expect(regions.count == 5)
        for region in regions {
            #expect(seen.contains { $0.topic == "homeassistant/binary_sensor/waymark_region_\(HomeAssistantID.of(region))/config" }, "\(region)")
        }
        for device in lastFix.keys {
            let id = HomeAssistantID.of(device)
            let config = seen.firstIndex { $0.topic == "homeassistant/device_tracker/waymark_\(id)/config" }
            let first = seen.firstIndex { $0.topic == "hass/device/\(id)/location" }
            #expect(config != nil && first != nil && config! < first!, "\(device)'s tracker is announced first")
            let times = positions(of: device).compactMap { ($0["time"] as? String).flatMap(Self.seconds) }
            #expect(times.count > 125 && times.count < 160, "\(device): \(times.count) positions")
            let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
            #expect(gaps.dropLast().allSatisfy { $0 >= 20 } && gaps.allSatisfy { $0 > 0 }, "\(device): \(gaps)")
        }
        // Each region's presence ends as PostgreSQL has it.
        for region in regions {
            let inside = try await rig.sql("SELECT device FROM region_state WHERE region = '\(region)' AND inside ORDER BY device")
            let states = seen.filter { $0.topic == "hass/region/\(HomeAssistantID.of(region))/state" }.map(\.payload)
            #expect(states.last == (inside.isEmpty ? "OFF" : "ON"), "\(region): \(states) with \(inside) inside")
            let attributes = seen.last { $0.topic == "hass/region/\(HomeAssistantID.of(region))/attributes" }
            let devices = attributes.flatMap { try? JSONSerialization.jsonObject(with: Data($0.payload.utf8)) as? [String: Any] }?["devices"] as? [String]
            #expect(devices == inside, "\(region)")
        }

        // Each tracker's state follows the device's place events as the workers committed them
        // (docs/semantics.md §3.7): the same pipeline as the single daemon's, the same states.
        for device in lastFix.keys {
            let places = try await rig.sql(
                "SELECT coalesce(record::jsonb ->> 'place', 'not_home') FROM events WHERE device = '\(device)' AND kind = 'place' ORDER BY sequence, split_part(id, '/', 3)::int")
            #expect(places.count > 2, "\(device): \(places)")
            let states = seen.filter { $0.topic == "hass/device/\(HomeAssistantID.of(device))/state" }.map(\.payload)
            #expect(states == places, "\(device)")
        }

        // OwnTracks: each device's transitions under its user, as the fleet committed them.
        for device in lastFix.keys {
            let committed = try await rig.sql(
                "SELECT record::jsonb ->> 'transition' FROM events WHERE device = '\(device)' AND kind = 'region' AND record::jsonb ->> 'transition' <> 'dwell' ORDER BY sequence, split_part(id, '/', 3)::int")
            let sent = seen.filter { $0.topic == "owntracks/\(device)/\(device)/event" }.compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.payload.utf8)) as? [String: Any])?["event"] as? String
            }
            #expect(sent == committed.map { $0 == "exit" ? "leave" : $0 }, "\(device): \(sent) vs \(committed)")
            let located = seen.filter { $0.topic == "owntracks/\(device)/\(device)" }.compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.payload.utf8)) as? [String: Any])?["tst"] as? Int
            }
            let gaps = zip(located.dropFirst(), located).map { $0 - $1 }
            #expect(located.count > 250 && located.count < 320 && gaps.dropLast().allSatisfy { $0 >= 10 }, "\(device): \(located.count) positions")
            #expect(located.last.map { String($0) } == Self.seconds(lastFix[device] ?? "").map { String($0) }, "\(device)'s last fix")
        }
        let on = seen.filter { $0.topic.hasPrefix("hass/region/") && $0.topic.hasSuffix("/state") && $0.payload == "ON" }.count
        #expect(on > 0, "someone was inside a region at some point")
        print(
            "fleet Home Assistant: positions \(lastFix.keys.sorted().map { "\($0) \(positions(of: $0).count)" }), "
                + "\(on) presence states ON, \(seen.count) messages")
    }

    /// Seconds since the epoch of an RFC 3339 time of whole seconds.
    static func seconds(_ time: String) -> Int? {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: time).map { Int($0.timeIntervalSince1970) }
    }

    /// Output → the live output node delivering it.
    private func ownersOfOutputs(_ rig: FleetTests.Rig) async throws -> [String: String] {
        var owners: [String: String] = [:]
        _ = try await BackgroundProcess.waitUntil(timeout: 30) {
            owners = [:]
            for output in try await rig.status()["outputs"] as? [[String: Any]] ?? [] {
                if let name = output["name"] as? String, let owner = output["owner"] as? String { owners[name] = owner }
            }
            return owners.count == 2 && Set(owners.values).count == 2
        }
        return owners
    }
}

/// Home Assistant's object id of a name, as docs/outputs.md gives it: every character but a–z,
/// 0–9 and `_` made `_`, then, if that changed anything, `_` and FNV-1a of the name in 8 hex digits.
enum HomeAssistantID {
    static func of(_ name: String) -> String {
        let safe = String(name.unicodeScalars.map { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" ? Character($0) : "_" })
        guard safe != name else { return safe }
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(hash, radix: 16)
        return safe + "_" + String(repeating: "0", count: 8 - hex.count) + hex
    }
}
