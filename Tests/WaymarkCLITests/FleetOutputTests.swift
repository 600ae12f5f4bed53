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
