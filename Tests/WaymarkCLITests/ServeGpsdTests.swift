import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// `waymark serve` on a real gpsd: what the daemon records matches gpsd 3.22's own expected
/// output, it survives gpsd restarting, and its API answers over the Unix socket.
@Suite(.serialized) struct ServeGpsdTests {
    static func recordedFixes(_ db: String) async throws -> [[String: Any]] {
        try await runWaymark(["history", "--db", db, "--kind", "fix"]).stdoutLines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test(arguments: ["ublox-lea-4h.log", "bundg_zeus_9.log", "bt451.log"])
    func recordedFixesMatchGpsdsCheckFile(log: String) async throws {
        let logURL = ProjectPaths.sharedData("nmea/gpsd-3.22/" + log)
        // History is in time order; gpsd's output repeats times and jumps back (bt451 crosses a
        // date roll), so compare both sides in the same order: time, then position. TPVs without
        // a time (GGA-only moments) are stamped by the daemon on arrival: compare their positions.
        let reports = try GpsdCheckFile.tpvReports(at: URL(fileURLWithPath: logURL.path + ".chk")).filter(\.isFix)
        let expected = reports.filter { $0.time != nil }
            .sorted { ($0.time!, $0.latitude!, $0.longitude!) < ($1.time!, $1.latitude!, $1.longitude!) }
        let untimed = reports.filter { $0.time == nil }.map { "\($0.latitude!),\($0.longitude!)" }.sorted()
        let gpsd = try GpsdHarness(log: logURL)
        try await gpsd.start()
        defer { gpsd.shutdown() }
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let daemon = try BackgroundProcess.waymark([
            "serve", "--gpsd", "127.0.0.1:\(gpsd.port)", "--db", db, "--socket", directory.path("api.sock"),
        ])
        let arrived = try await BackgroundProcess.waitUntil(timeout: 30) {
            (try? await Self.recordedFixes(db).count) ?? 0 >= reports.count
        }
        #expect(arrived, "daemon log: \(daemon.stderr.suffix(2000))")
        try await Task.sleep(for: .milliseconds(300))
        daemon.send(SIGTERM)
        #expect(try await daemon.wait(timeout: 10) == 0, "\(daemon.stderr.suffix(2000))")
        let expectedTimes = Set(expected.map { $0.time!.rfc3339 })
        let all = try await Self.recordedFixes(db)
        let stamped = all.filter { !expectedTimes.contains($0["time"] as! String) }
        #expect(stamped.map { "\($0["latitude"]!),\($0["longitude"]!)" }.sorted() == untimed)
        let recorded = all.filter { expectedTimes.contains($0["time"] as! String) }.sorted {
            (Timestamp(rfc3339: $0["time"] as! String)!, $0["latitude"] as! Double, $0["longitude"] as! Double)
                < (Timestamp(rfc3339: $1["time"] as! String)!, $1["latitude"] as! Double, $1["longitude"] as! Double)
        }
        try #require(recorded.count == expected.count, "recorded \(recorded.count), expected \(expected.count)")
        for (fix, tpv) in zip(recorded, expected) {
            #expect(fix["time"] as? String == tpv.time?.rfc3339)
            #expect(abs((fix["latitude"] as? Double ?? 0) - (tpv.latitude ?? 0)) <= 1e-6)
            #expect(abs((fix["longitude"] as? Double ?? 0) - (tpv.longitude ?? 0)) <= 1e-6)
        }
    }

    @Test func recordingResumesAfterGpsdRestartsAndTheAPIAnswers() async throws {
        let gpsd = try GpsdHarness(
            log: ProjectPaths.sharedData("nmea/gpsd-3.22/bundg_zeus_9.log"), pace: .interval(.milliseconds(5)), repeats: true)
        try await gpsd.start()
        defer { gpsd.shutdown() }
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let socket = directory.path("api.sock")
        let daemon = try BackgroundProcess.waymark(["serve", "--gpsd", "127.0.0.1:\(gpsd.port)", "--db", db, "--socket", socket])
        #expect(try await BackgroundProcess.waitUntil(timeout: 30) { (try? await Self.recordedFixes(db).count) ?? 0 > 10 }, "\(daemon.stderr.suffix(2000))")

        // The API over the Unix socket, as a user would query it.
        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        let last = try await runProcess(curl, ["-s", "--unix-socket", socket, "http://localhost/v1/fixes/last"])
        #expect(last.stdout.hasPrefix("{\"kind\":\"fix\""), "\(last.stdout)")
        let status = try await runProcess(curl, ["-s", "--unix-socket", socket, "http://localhost/v1/status"])
        #expect(status.stdout.contains("\"connected\":true"), "\(status.stdout)")
        let cliStatus = try await runWaymark(["status", "--socket", socket])
        #expect(cliStatus.status == 0 && cliStatus.stdout.contains("\"kind\":\"gpsd\""), "\(cliStatus.stdout) \(cliStatus.stderr)")
        let imported = try await runWaymark(["regions", "import", "Regions/lakeside.geojson", "--socket", socket])
        #expect(imported.status == 0, "\(imported.stderr)")
        let listed = try await runWaymark(["regions", "list", "--socket", socket])
        #expect(listed.stdout.contains("\"hut\""), "\(listed.stdout)")
        // The daemon's list and the database's are the same lines.
        let listedFromDatabase = try await runWaymark(["regions", "list", "--db", db]).stdoutLines
        #expect(listed.stdoutLines.count == 5 && listed.stdoutLines == listedFromDatabase, "\(listedFromDatabase)")
        let state = try await runProcess(curl, ["-s", "--unix-socket", socket, "http://localhost/v1/regions/hut/state"])
        #expect(state.stdout.contains("\"state\":\"outside\"") || state.stdout.contains("\"state\":\"unknown\""), "\(state.stdout)")
        let stream = try await runProcess(curl, ["-s", "-N", "--max-time", "2", "--unix-socket", socket, "http://localhost/v1/stream"])
        #expect(stream.stdout.contains("event: fix"), "\(stream.stdout.prefix(500))")

        try await gpsd.stopGpsd(signal: SIGKILL)
        try await Task.sleep(for: .seconds(1))
        let before = try await Self.recordedFixes(db).count
        try await gpsd.restartGpsd()
        let resumed = try await BackgroundProcess.waitUntil(timeout: 2.5) { (try? await Self.recordedFixes(db).count) ?? 0 > before }
        #expect(resumed, "recording did not resume within 2.5 s of gpsd's return: \(daemon.stderr.suffix(2000))")
        let gaps = try await runWaymark(["history", "--db", db, "--kind", "gap"]).stdout
        #expect(gaps.contains("source disconnected"))
        daemon.send(SIGTERM)
        #expect(try await daemon.wait(timeout: 10) == 0)
    }

    /// With recording off and no regions, nothing needs the GPS: the daemon does not watch gpsd
    /// (so gpsd can idle the receiver) until a live-stream client connects.
    @Test func theDaemonWatchesGpsdOnlyWhileSomethingNeedsFixes() async throws {
        let gpsd = try GpsdHarness(
            log: ProjectPaths.sharedData("nmea/gpsd-3.22/bundg_zeus_9.log"), pace: .interval(.milliseconds(5)), repeats: true)
        try await gpsd.start()
        defer { gpsd.shutdown() }
        let directory = try TemporaryDirectory()
        let config = try directory.write("waymark.yaml", "store:\n  record_fixes: false\n")
        let socket = directory.path("api.sock")
        let daemon = try BackgroundProcess.waymark([
            "serve", "--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)", "--db", directory.path("w.sqlite"), "--socket", socket,
        ])
        #expect(try await BackgroundProcess.waitUntil(timeout: 20) { unixSocketAccepts(path: socket) }, "\(daemon.stderr)")
        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        let idle = try await runProcess(curl, ["-s", "--unix-socket", socket, "http://localhost/v1/status"])
        #expect(idle.stdout.contains("\"watching\":false"), "\(idle.stdout)")
        let stream = try await runProcess(curl, ["-s", "-N", "--max-time", "3", "--unix-socket", socket, "http://localhost/v1/stream"])
        #expect(stream.stdout.contains("event: fix"), "\(stream.stdout.prefix(300)) \(daemon.stderr.suffix(1500))")
        #expect(try await BackgroundProcess.waitUntil(timeout: 5) {
            ((try? await runProcess(curl, ["-s", "--unix-socket", socket, "http://localhost/v1/status"]))?.stdout ?? "").contains("\"watching\":false")
        }, "the daemon kept watching after the stream closed")
        daemon.send(SIGTERM)
        #expect(try await daemon.wait(timeout: 10) == 0)
    }
}
