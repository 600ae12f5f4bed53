import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// The network radio in the energy ledger (docs/semantics.md §4.1) on a real daemon: a phone
/// posting over the device listener and a webhook output delivering to a real receiver, with
/// `power.network: cellular`. Each party's cellular time is its own traffic's promotions and
/// tails (the LTE profile's 11.6 s), and nothing is charged that the traffic did not cause.
@Suite struct ServeNetworkEnergyTests {
    /// `waymark power --by handler --json` rows for the cellular radio, by party.
    static func cellularRows(socket: String) async throws -> [String: [String: Any]] {
        let report = try await runWaymark(["power", "--json", "--by", "handler", "--socket", socket])
        #expect(report.status == 0, "\(report.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let rows = (object["rows"] as? [[String: Any]] ?? []).filter { $0["radio"] as? String == "cellular" }
        return Dictionary(rows.map { ($0["handler"] as? String ?? "?", $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func seconds(_ row: [String: Any]?, _ state: String) -> Double {
        (row?["seconds"] as? [String: Double])?[state] ?? 0
    }

    @Test func theListenerAndAWebhookPayForTheirOwnCellularTime() async throws {
        let started = Date()
        let rig = try await NetworkDevicesTests.Rig.start { directory in
            ["--config", try directory.write("waymark.yaml", "power:\n  network: cellular\n")]
        }
        try await rig.daemon.whileRunning {
            let socket = rig.directory.path("api.sock")
            let port = try freeLoopbackPort()
            let secret = try await WebhookOutputTests.addOutput(rig, port: port)
            let log = rig.directory.path("received.jsonl")
            let receiver = try WebhookOutputTests.receiver(port: port, secret: secret, log: log)
            try await receiver.whileRunning {
                try await WebhookOutputTests.waitForReceiver(receiver, port: port)
                try await WebhookOutputTests.walk(rig, devices: ["phone"])
                let events = try await WebhookOutputTests.waitForDeliveries(log, count: 2)
                #expect(events.count == 2)

                let status = try #require(await ServePowerTests.status(socket))
                let network = try #require((status["power"] as? [String: Any])?["network"] as? [String: Any])
                #expect(network["radio"] as? String == "cellular")
                #expect(network["profile"] as? String == "lte-modem")
                #expect(network["state"] as? String == "tail" || network["state"] as? String == "active", "\(network)")
                // Eight OwnTracks posts and two CloudEvents, bodies and heads: some kilobytes.
                let bytes = try #require(network["bytes"] as? Int)
                #expect(bytes > 8 * 150 + 2 * 300 && bytes < 100_000, "\(bytes)")
                #expect((network["joulesSinceStart"] as? Double ?? 0) > 0)

                // The burst's tail runs out (11.6 s); listening then holds the radio idle.
                let idle = try await BackgroundProcess.waitUntil(timeout: 30) {
                    let now = await ServePowerTests.status(socket)
                    return ((now?["power"] as? [String: Any])?["network"] as? [String: Any])?["state"] as? String == "idle"
                }
                #expect(idle)

                let rows = try await Self.cellularRows(socket: socket)
                let listener = rows["(listener)"]
                let output = rows["output:hub"]
                #expect(listener?["profile"] as? String == "lte-modem", "\(rows)")
                // Both parties' bytes moved the radio, so both pay for active and tail time.
                for party in [listener, output] {
                    #expect(Self.seconds(party, "active") > 0 && Self.seconds(party, "tail") > 0, "\(rows)")
                }
                // At least one promotion and one whole tail, and never more busy time than passed.
                let active = rows.values.reduce(0) { $0 + Self.seconds($1, "active") }
                let tail = rows.values.reduce(0) { $0 + Self.seconds($1, "tail") }
                #expect(active >= 0.26 - 1e-6 && tail >= 11.6 - 1e-3, "\(rows)")
                let elapsed = Date().timeIntervalSince(started)
                #expect(active + tail <= elapsed, "\(active + tail) s busy in \(elapsed) s")
                // Listening holds the radio idle while nothing moves; the output holds no connection.
                #expect(Self.seconds(listener, "idle") > 0, "\(rows)")
                #expect(Self.seconds(output, "idle") == 0, "\(rows)")
            }
        }
    }

    @Test func aWiredMachineCountsBytesButPricesNoRadio() async throws {
        let rig = try await NetworkDevicesTests.Rig.start { directory in
            ["--config", try directory.write("waymark.yaml", "power:\n  network: none\n")]
        }
        try await rig.daemon.whileRunning {
            let socket = rig.directory.path("api.sock")
            try await WebhookOutputTests.walk(rig, devices: ["phone"])
            let status = try #require(await ServePowerTests.status(socket))
            let network = try #require((status["power"] as? [String: Any])?["network"] as? [String: Any])
            #expect(network["radio"] is NSNull && network["joulesSinceStart"] is NSNull, "\(network)")
            #expect((network["bytes"] as? Int ?? 0) > 8 * 150, "\(network)")
            #expect(try await Self.cellularRows(socket: socket).isEmpty)
        }
    }
}
