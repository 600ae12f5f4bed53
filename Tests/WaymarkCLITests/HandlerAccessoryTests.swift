import Foundation
import Testing
import WaymarkTestSupport

/// Accessory wakes with a real gpsd (docs/semantics.md §1.7): a handler registered with
/// `--accessory` is launched with reason `accessory` when the receiver regains or loses its fix,
/// and when gpsd removes or adds the receiver (through gpsd's control socket, as hotplug does).
@Suite struct HandlerAccessoryTests {
    static func accessoryEvents(_ scenario: HandlerScenario) -> [[String: Any]] {
        scenario.events().filter { $0["reason"] as? String == "accessory" }.compactMap { $0["event"] as? [String: Any] }
    }

    static func changes(_ scenario: HandlerScenario) -> [String] { accessoryEvents(scenario).compactMap { $0["event"] as? String } }

    @Test func fixChangesAndTheReceiverComingAndGoingWakeTheHandler() async throws {
        // u-blox LEA-4H: no fix, then 3D, no fix again, then 3D.
        let gpsd = try GpsdHarness(log: ProjectPaths.sharedData("nmea/gpsd-3.22/ublox-lea-4h.log"))
        try await gpsd.start()
        defer { gpsd.shutdown() }
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--accessory", "--budget", "2"])
        let daemon = try BackgroundProcess.waymark([
            "serve", "--gpsd", "127.0.0.1:\(gpsd.port)", "--db", scenario.db, "--socket", scenario.socket,
        ])
        try await daemon.whileRunning {
            let fixes = try await BackgroundProcess.waitUntil(timeout: 20) { Self.changes(scenario).count >= 3 }
            #expect(fixes, "\(scenario.lines())\n\(daemon.stderr.suffix(3000))")
            // The no-fix state the daemon starts in is learnt, not announced.
            #expect(Self.changes(scenario) == ["fixRegained", "fixLost", "fixRegained"])
            let times = Self.accessoryEvents(scenario).compactMap { $0["time"] as? String }
            #expect(times == ["2026-03-26T03:08:58Z", "2026-03-26T03:10:07Z", "2026-03-26T03:10:08Z"], "\(times)")

            // gpsd removes the receiver (a hotplug script's `gpsdctl remove`), then adds it back.
            #expect(try await gpsd.control("-" + gpsd.devicePath) == "OK")
            let removed = try await BackgroundProcess.waitUntil(timeout: 10) { Self.changes(scenario).contains("receiverRemoved") }
            #expect(removed, "\(scenario.lines())\n\(daemon.stderr.suffix(3000))")
            #expect(try await gpsd.control("+" + gpsd.devicePath) == "OK")
            let attached = try await BackgroundProcess.waitUntil(timeout: 10) { Self.changes(scenario).contains("receiverAttached") }
            #expect(attached, "\(scenario.lines())\n\(daemon.stderr.suffix(3000))")
            let receiver = Self.accessoryEvents(scenario).filter { ($0["event"] as? String)?.hasPrefix("receiver") == true }
            #expect(receiver.map { $0["device"] as? String } == [gpsd.devicePath, gpsd.devicePath])

            let log = try await runWaymark(["handlers", "log", "hut-log", "--db", scenario.db]).stdoutLines
            #expect(log.contains { $0.contains("launched for accessory") }, "\(log)")
            // Accessory changes are history too.
            let history = try await runWaymark(["history", "--kind", "event", "--db", scenario.db])
            #expect(history.stdout.contains("\"kind\":\"accessory\""), "\(history.stdout.suffix(1000)) \(history.stderr)")
        }
    }

    /// Without `--accessory` a handler is not woken for them.
    @Test func onlySubscribersAreWoken() async throws {
        let gpsd = try GpsdHarness(log: ProjectPaths.sharedData("nmea/gpsd-3.22/ublox-lea-4h.log"))
        try await gpsd.start()
        defer { gpsd.shutdown() }
        let scenario = try await HandlerScenario()
        try await scenario.register(flags: ["--budget", "2"])
        let daemon = try BackgroundProcess.waymark([
            "serve", "--gpsd", "127.0.0.1:\(gpsd.port)", "--db", scenario.db, "--socket", scenario.socket,
        ])
        try await daemon.whileRunning {
            let recorded = try await BackgroundProcess.waitUntil(timeout: 20) {
                let history = try? await runWaymark(["history", "--kind", "event", "--db", scenario.db])
                return history?.stdout.components(separatedBy: "\"kind\":\"accessory\"").count == 4
            }
            #expect(recorded, "\(daemon.stderr.suffix(3000))")
            #expect(Self.accessoryEvents(scenario).isEmpty)
        }
    }
}
