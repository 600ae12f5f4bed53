import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// A phone's energy estimate through a real daemon (docs/semantics.md §4.4): OwnTracks locations
/// over HTTP in move mode, then significant mode, read back with `waymark power --device`.
@Suite struct PhoneEnergyDaemonTests {
    static func location(mode: Int?, conn: String, at seconds: Int) -> String {
        var body = #"{"_type":"location","lat":47.3,"lon":8.5,"tst":\#(seconds),"acc":12,"vel":0,"batt":80,"t":"u","tid":"ph","conn":"\#(conn)""#
        if let mode { body += #","m":\#(mode)"# }
        return body + "}"
    }

    func power(_ rig: NetworkDevicesTests.Rig, _ arguments: [String]) async throws -> ProcessResult {
        try await runWaymark(["power"] + arguments + ["--socket", rig.directory.path("api.sock")])
    }

    @Test func moveThenSignificantOverHTTPIsSplitAndPricedAndAnUnknownDeviceIsNamed() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        try await rig.daemon.whileRunning {
            let bearer = ["Authorization: Bearer \(rig.phoneSecret)"]
            let start = Int(Date().timeIntervalSince1970) - 60
            // Move mode over mobile data for about 2 s, then significant mode over Wi-Fi.
            #expect(try await rig.ownTracks(Self.location(mode: 2, conn: "m", at: start), bearer).status == 200)
            try await Task.sleep(for: .seconds(1))
            #expect(try await rig.ownTracks(Self.location(mode: 2, conn: "m", at: start + 1), bearer).status == 200)
            try await Task.sleep(for: .seconds(1))
            #expect(try await rig.ownTracks(Self.location(mode: 1, conn: "w", at: start + 2), bearer).status == 200)
            try await Task.sleep(for: .seconds(1))
            #expect(try await rig.ownTracks(Self.location(mode: 1, conn: "o", at: start + 3), bearer).status == 200)
            // The tracker's reports say nothing of its mode.
            let tracker = ["Authorization: Bearer \(rig.trackerSecret)"]
            #expect(try await rig.ownTracks(NetworkDevicesTests.location(latitude: 47.3, longitude: 8.5, at: start), tracker).status == 200)

            let answer = try await power(rig, ["--device", "phone", "--json"])
            try #require(answer.status == 0, "\(answer.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any])
            let move = try #require(report["moveSeconds"] as? Double)
            let significant = try #require(report["significantSeconds"] as? Double)
            #expect(move > 1.5 && move < 10, "\(report)")
            #expect(significant > 0.5 && significant < 10, "\(report)")
            let joules = try #require(report["joules"] as? [String: Double])
            // The GNSS at 0.19 W for the move seconds; the LTE burst at least its promotion and
            // some tail (about 1 W); the Wi-Fi report and two network fixes (0.684 J each).
            #expect(abs((joules["gnss"] ?? 0) - 0.19 * move) < 0.01, "\(report)")
            #expect((joules["cellular"] ?? 0) > 0.3 && (joules["cellular"] ?? 0) < 13, "\(report)")
            #expect((joules["wifi"] ?? 0) > 2 * 0.684 && (joules["wifi"] ?? 0) < 2 * 0.684 + 0.1, "\(report)")
            #expect(report["reports"] as? Int == 4 && report["queuedReports"] as? Int == 1 && report["networkFixes"] as? Int == 2, "\(report)")
            #expect(report["profiles"] as? [String] == ["phone-gnss + phone-wifi + phone-lte"], "\(report)")

            let text = try await power(rig, ["--device", "phone"])
            #expect(text.status == 0)
            #expect(text.stdout.contains("mode     move 0.00 h, significant 0.00 h"), "\(text.stdout)")
            #expect(text.stdout.contains("J/h") && text.stdout.contains("priced by phone-gnss + phone-wifi + phone-lte"), "\(text.stdout)")

            let trackerReport = try await power(rig, ["--device", "tracker"])
            #expect(trackerReport.stdout.contains("unknown") && trackerReport.stdout.contains("without a monitoring mode"), "\(trackerReport.stdout)")

            let unknown = try await power(rig, ["--device", "nobody"])
            #expect(unknown.status != 0)
            #expect(unknown.stderr.contains("404") && unknown.stderr.contains("no device") && unknown.stderr.contains("nobody"), "\(unknown.stderr)")
            let byHandler = try await power(rig, ["--device", "phone", "--by", "handler"])
            #expect(byHandler.status != 0 && byHandler.stderr.contains("--by"), "\(byHandler.stderr)")
        }
        // Stopped: the figures were stored, so the database answers the same without the daemon.
        let stored = try await runWaymark(["power", "--device", "phone", "--json", "--db", rig.db])
        #expect(stored.status == 0, "\(stored.stderr)")
        #expect(stored.stdout.contains(#""reports":4"#), "\(stored.stdout)")
        let missing = try await runWaymark(["power", "--device", "nobody", "--db", rig.db])
        #expect(missing.status != 0 && missing.stderr.contains(#"no device "nobody""#), "\(missing.stderr)")
    }

    @Test func publishesOverMQTTArePricedPerDeviceToo() async throws {
        try await MQTTDevicesTests.withBrokerAndDaemon { brokerPort, _, directory, daemon in
            let start = Int(Date().timeIntervalSince1970) - 600
            // Significant mode over mobile data: three publishes, each a network fix and an LTE burst.
            try await MQTTDevicesTests.publish(
                port: brokerPort, (0..<3).map { ("owntracks/alice/phone", Self.location(mode: 1, conn: "m", at: start + $0 * 60)) })
            var report: [String: Any] = [:]
            let priced = try await BackgroundProcess.waitUntil(timeout: 30) {
                let answer = try await runWaymark(["power", "--device", "phone", "--json", "--socket", directory.path("api.sock")])
                report = (try? JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any]) ?? [:]
                return report["reports"] as? Int == 3
            }
            #expect(priced, "\(report)\n\(daemon.stderr.suffix(1000))")
            #expect(report["networkFixes"] as? Int == 3 && report["moveSeconds"] as? Double == 0, "\(report)")
            let joules = report["joules"] as? [String: Double] ?? [:]
            #expect(abs((joules["wifi"] ?? 0) - 3 * 0.684) < 0.001, "\(report)")
            #expect((joules["cellular"] ?? 0) > 0.3, "\(report)")
            #expect((joules["gnss"] ?? -1) == 0, "\(report)")
        }
    }
}
