import Foundation
import Testing
import WaymarkTestSupport

/// Region state persists in the store across daemon restarts (docs/semantics.md §3), and
/// `waymark regions state` answers from the daemon or from the database.
@Suite struct RegionStateTests {
    /// A GPX track of one fix a second at `latitude`, `longitude` from `start` (seconds after
    /// 2026-06-02T10:00:00Z) for `count` seconds.
    private func track(_ directory: TemporaryDirectory, _ name: String, latitude: Double, longitude: Double, start: Int, count: Int) throws -> String {
        var gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        for second in start..<(start + count) {
            let time = String(format: "2026-06-02T10:%02d:%02dZ", second / 60, second % 60)
            gpx += "<trkpt lat=\"\(latitude)\" lon=\"\(longitude)\"><time>\(time)</time></trkpt>\n"
        }
        return try directory.write(name, gpx + "</trkseg></trk></gpx>\n")
    }

    private func serve(_ track: String, _ directory: TemporaryDirectory) async throws {
        let result = try await runWaymark([
            "serve", "--replay", track, "--fast", "--exit-after-replay", "--regions", "Regions",
            "--db", directory.path("w.sqlite"), "--socket", directory.path("api.sock"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
    }

    private func state(_ region: String, _ directory: TemporaryDirectory) async throws -> [String: Any] {
        let result = try await runWaymark(["regions", "state", region, "--db", directory.path("w.sqlite")])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    }

    @Test func aDaemonRestartedAfterTheDeviceLeftReportsTheExit() async throws {
        let directory = try TemporaryDirectory()
        // At the mountain hut (a 120 m circle at 8.725, 47.355) for a minute …
        try await serve(try track(directory, "at-hut.gpx", latitude: 47.355, longitude: 8.725, start: 0, count: 60), directory)
        #expect(try await state("hut", directory)["state"] as? String == "inside")
        #expect(try await state("hut", directory)["since"] as? String == "2026-06-02T10:00:00Z")
        #expect(try await state("village", directory)["state"] as? String == "outside")
        // … then, after the daemon was down, a kilometre away: the saved state makes it an exit.
        try await serve(try track(directory, "away.gpx", latitude: 47.364, longitude: 8.725, start: 600, count: 60), directory)
        let events = try await runWaymark(["history", "--db", directory.path("w.sqlite"), "--kind", "event"])
        // The first run's place (the hut, from its first fix); the restart derives it from the
        // saved states with no event, and the exit moves it.
        #expect(events.stdoutLines.count == 3, "\(events.stdoutLines)")
        #expect(events.stdoutLines.first?.hasPrefix(#"{"kind":"place","place":"hut","previous":null,"time":"2026-06-02T10:00:00Z""#) == true)
        #expect(events.stdoutLines.dropFirst().first?.hasPrefix(
            "{\"kind\":\"region\",\"transition\":\"exit\",\"region\":\"hut\",\"time\":\"2026-06-02T10:10:00Z\"") == true)
        #expect(events.stdoutLines.dropFirst().first?.contains("\"confirmedAt\":\"2026-06-02T10:10:20Z\"") == true)
        #expect(events.stdoutLines.last?.hasPrefix(#"{"kind":"place","place":null,"previous":"hut","time":"2026-06-02T10:10:00Z""#) == true)
        #expect(try await state("hut", directory)["state"] as? String == "outside")
        #expect(try await state("hut", directory)["since"] as? String == "2026-06-02T10:10:00Z")
    }

    @Test func registeringARegionGivesNoEventAndItsStateIsUnknownUntilAFix() async throws {
        let directory = try TemporaryDirectory()
        let imported = try await runWaymark(["regions", "import", "Regions", "--db", directory.path("w.sqlite")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try await state("hut", directory)["state"] as? String == "unknown")
        try await serve(try track(directory, "at-hut.gpx", latitude: 47.355, longitude: 8.725, start: 0, count: 60), directory)
        let events = try await runWaymark(["history", "--db", directory.path("w.sqlite"), "--kind", "event"])
        // No transition; the device's place, the hut, is reported (docs/semantics.md §3.7).
        #expect(events.stdoutLines.count == 1 && events.stdoutLines[0].hasPrefix(#"{"kind":"place","place":"hut","previous":null,"#), "\(events.stdoutLines)")
        #expect(try await state("hut", directory)["state"] as? String == "inside")
    }

    @Test func anUnknownRegionIsAnError() async throws {
        let directory = try TemporaryDirectory()
        let result = try await runWaymark(["regions", "state", "atlantis", "--db", directory.path("w.sqlite")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no region 'atlantis'"))
    }
}

/// A database given as a bare file name lives in the current folder.
@Test func aBareDatabaseFileNameIsInTheCurrentFolder() async throws {
    let directory = try TemporaryDirectory()
    let result = try await runProcess(
        ProjectPaths.waymarkExecutable, ["regions", "import", ProjectPaths.repositoryRoot.appendingPathComponent("Regions").path, "--db", "w.sqlite"],
        currentDirectory: directory.url)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: directory.path("w.sqlite")))
}
