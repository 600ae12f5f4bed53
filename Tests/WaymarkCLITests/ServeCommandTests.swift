import Foundation
import Testing
import WaymarkTestSupport

/// `waymark serve` as a user runs it: a real daemon process, real files, real signals.
@Suite struct ServeCommandTests {
    /// The daemon replaying the sample ride records the same region and place events `waymark
    /// replay` prints, and `waymark history` prints them byte for byte, in the same order.
    @Test func serveReplayRecordsWhatReplayPrints() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("waymark.sqlite")
        let served = try await runWaymark([
            "serve", "--replay", "Tracks/lakeside-ride.gpx", "--fast", "--exit-after-replay",
            "--regions", "Regions", "--db", db, "--socket", directory.path("api.sock"),
        ])
        #expect(served.status == 0, "\(served.stderr)")
        let replayed = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--regions", "Regions", "--fast"])
        let expected = replayed.stdoutLines.filter { $0.hasPrefix("{\"kind\":\"region\"") || $0.hasPrefix("{\"kind\":\"place\"") }
        let history = try await runWaymark(["history", "--db", db, "--kind", "event"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdoutLines.map { replayRecord($0) } == expected)
        #expect(history.stdoutLines.allSatisfy { $0.hasSuffix(#","device":"local"}"#) })
        #expect(expected.filter { $0.hasPrefix("{\"kind\":\"region\"") }.count == 14)
        #expect(expected.filter { $0.hasPrefix("{\"kind\":\"place\"") }.count == 14, "each enter and exit moves the place here")
        let fixes = try await runWaymark(["history", "--db", db, "--kind", "fix"])
        #expect(fixes.stdoutLines.count == 2974)
        #expect(fixes.stdoutLines.first?.hasPrefix("{\"kind\":\"fix\",\"time\":\"2026-06-01T08:00:00Z\",\"latitude\":47.355972,\"longitude\":8.6700161") == true)
    }

    @Test func historyFiltersByTime() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("waymark.sqlite")
        _ = try await runWaymark([
            "serve", "--replay", "Tracks/lakeside-ride.gpx", "--exit-after-replay", "--db", db,
            "--socket", directory.path("api.sock"),
        ])
        let window = try await runWaymark([
            "history", "--db", db, "--from", "2026-06-01T08:10:00Z", "--to", "2026-06-01T08:11:00Z", "--kind", "fix",
        ])
        #expect(window.stdoutLines.count == 60)
        #expect(window.stdoutLines.first?.contains("\"time\":\"2026-06-01T08:10:00Z\"") == true)
    }

    @Test func sigtermStopsTheDaemonGracefully() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.path("api.sock")
        let daemon = try BackgroundProcess.waymark([
            "serve", "--replay", "Tracks/lakeside-ride.gpx", "--speed", "1", "--db", directory.path("w.sqlite"),
            "--socket", socket,
        ])
        #expect(try await BackgroundProcess.waitUntil(timeout: 20) { unixSocketAccepts(path: socket) }, "\(daemon.stderr)")
        daemon.send(SIGTERM)
        #expect(try await daemon.wait(timeout: 10) == 0, "\(daemon.stderr)")
    }

    @Test func sighupReimportsTheConfiguredRegions() async throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("regions")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: ProjectPaths.repositoryRoot.appendingPathComponent("Regions/lakeside.geojson"),
            to: folder.appendingPathComponent("lakeside.geojson"))
        let socket = directory.path("api.sock")
        let daemon = try BackgroundProcess.waymark([
            "serve", "--replay", "Tracks/lakeside-ride.gpx", "--speed", "1", "--db", directory.path("w.sqlite"),
            "--socket", socket, "--regions", folder.path,
        ])
        #expect(try await BackgroundProcess.waitUntil(timeout: 20) { unixSocketAccepts(path: socket) }, "\(daemon.stderr)")
        try Data("""
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"added","properties":{"radius":50},
             "geometry":{"type":"Point","coordinates":[8.7,47.36]}}]}
            """.utf8).write(to: folder.appendingPathComponent("added.geojson"))
        daemon.send(SIGHUP)
        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        #expect(try await BackgroundProcess.waitUntil(timeout: 10) {
            ((try? await runProcess(curl, ["-s", "--unix-socket", socket, "http://localhost/v1/regions/added/state"]))?.stdout ?? "")
                .contains("\"identifier\":\"added\"")
        }, "\(daemon.stderr)")
        daemon.send(SIGTERM)
        #expect(try await daemon.wait(timeout: 10) == 0, "\(daemon.stderr)")
    }

    /// SIGKILL while recording, then restart: the database is intact, every committed fix is
    /// still there, and the daemon carries on recording.
    @Test func sigkillWhileRecordingLosesNoCommittedFix() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let socket = directory.path("api.sock")
        let daemon = try BackgroundProcess.waymark([
            "serve", "--replay", "Tracks/lakeside-ride.gpx", "--speed", "200", "--db", db, "--socket", socket,
        ])
        #expect(try await BackgroundProcess.waitUntil(timeout: 20) { unixSocketAccepts(path: socket) })
        try await Task.sleep(for: .seconds(1.5))
        daemon.send(SIGKILL)
        try await daemon.wait(timeout: 5)
        let before = try await runWaymark(["history", "--db", db, "--kind", "fix"]).stdoutLines
        #expect(before.count > 50, "the daemon recorded \(before.count) fixes before the kill")
        let check = try await runProcess(URL(fileURLWithPath: "/usr/bin/sqlite3"), [db, "PRAGMA integrity_check;"])
        #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok", "\(check.stdout) \(check.stderr)")
        let restarted = try await runWaymark([
            "serve", "--replay", "Tracks/lakeside-ride.gpx", "--fast", "--exit-after-replay", "--db", db, "--socket", socket,
        ])
        #expect(restarted.status == 0, "\(restarted.stderr)")
        let after = try await runWaymark(["history", "--db", db, "--kind", "fix"]).stdoutLines
        #expect(Array(after.prefix(before.count)) == before, "committed fixes changed")
        #expect(after.count == 2974, "the restarted daemon recorded the rest of the track")
    }

    struct BadConfiguration: Sendable, CustomTestStringConvertible {
        var yaml: String
        var expected: String
        var testDescription: String { expected }
    }

    static let badConfigurations: [BadConfiguration] = [
        .init(yaml: "gpsd:\n  port: 70000\n", expected: "waymark.yaml:2:9: gpsd.port: 70000 is outside 1…65535"),
        .init(yaml: "gpsd:\n  prot: 2947\n", expected: "waymark.yaml:2:3: gpsd.prot: unknown key"),
        .init(yaml: "store:\n  retention_days: soon\n", expected: "waymark.yaml:2:19: store.retention_days: must be a number"),
        .init(yaml: "log:\n  level: loud\n", expected: "waymark.yaml:2:10: log.level: 'loud' is not one of"),
        .init(yaml: "gpsd: [1, 2\n", expected: "waymark.yaml:2:1: YAML syntax"),
        .init(yaml: "colour: blue\n", expected: "waymark.yaml:1:1: colour: unknown key"),
    ]

    @Test(arguments: badConfigurations)
    func aBadConfigurationNamesTheKeyAndLine(_ bad: BadConfiguration) async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("waymark.yaml", bad.yaml)
        let result = try await runWaymark(["serve", "--config", config, "--db", directory.path("w.sqlite"), "--socket", directory.path("s")])
        #expect(result.status == 1)
        #expect(result.stderr.contains(bad.expected), "stderr: \(result.stderr)")
    }

    @Test func aMissingConfigurationFileIsAnError() async throws {
        let result = try await runWaymark(["serve", "--config", "/nonexistent/waymark.yaml"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/waymark.yaml"))
    }
}
