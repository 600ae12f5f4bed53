import Foundation
import Testing
import WaymarkTestSupport

/// A real daemon whose webhook receiver never finishes its answer
/// (Tests/Receivers/misbehaving_webhook.py): SIGTERM still stops it within seconds, and the event
/// it was delivering is delivered after a restart.
@Suite struct WebhookShutdownTests {
    static let misbehaving = ProjectPaths.repositoryRoot.appendingPathComponent("Tests/Receivers/misbehaving_webhook.py").path

    @Test func aReceiverTricklingItsAnswerDoesNotHoldUpShutdownAndTheEventIsDeliveredAfterARestart() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        let port = try freeLoopbackPort()
        let trickled = rig.directory.path("trickled.log")
        try await rig.daemon.whileRunning {
            _ = try await WebhookOutputTests.addOutput(rig, port: port)
            let trickler = try BackgroundProcess(
                URL(fileURLWithPath: "/usr/bin/python3"), [Self.misbehaving, "trickle-all", "\(port)", trickled])
            try await trickler.whileRunning {
                try await WebhookOutputTests.waitForReceiver(trickler, port: port)
                try await WebhookOutputTests.walk(rig, devices: ["phone"])
                let stalled = try await BackgroundProcess.waitUntil(timeout: 30) {
                    ((try? String(contentsOfFile: trickled, encoding: .utf8)) ?? "").contains("POST /hook")
                }
                try #require(stalled, "the daemon never sent the event: \(rig.daemon.stderr.suffix(2000))")
                try await Task.sleep(for: .seconds(1))  // well into the answer's body
                let asked = ContinuousClock.now
                rig.daemon.send(SIGTERM)
                let status = try await rig.daemon.wait(timeout: 10)
                let took = ContinuousClock.now - asked
                #expect(status == 0, "still running \(took) after SIGTERM: \(rig.daemon.stderr.suffix(2000))")
                #expect(took < .seconds(5), "\(took)")
            }
        }
        // Nothing was delivered: after a restart, a receiver that answers gets both events.
        try await WebhookOutputTests.withReceiverAndRestartedDaemon(rig, port: port) { log, restarted in
            let events = try await WebhookOutputTests.waitForDeliveries(log, count: 2)
            #expect(
                events.compactMap { $0["id"] as? String } == (try await WebhookOutputTests.expectedIDs(db: rig.db)),
                "\(events)\n\(restarted.stderr.suffix(2000))")
        }
    }
}
