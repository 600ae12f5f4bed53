import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// `waymark power` reporting a daemon's energy ledger through the API and from the database, and
/// power-aware sampling on a real gpsd.
@Suite(.serialized) struct ServePowerTests {
    static let curl = URL(fileURLWithPath: "/usr/bin/curl")

    static func status(_ socket: String) async -> [String: Any]? {
        guard let result = try? await runProcess(curl, ["-s", "--unix-socket", socket, "http://localhost/v1/status"]) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any]
    }

    static func fixesRecorded(_ socket: String) async -> Int {
        (await status(socket)?["counters"] as? [String: Int])?["fixesRecorded"] ?? 0
    }

    /// The GNSS row of `waymark power --json` through the daemon at `socket`.
    static func gnssRow(_ socket: String) async throws -> [String: Any] {
        let report = try await runWaymark(["power", "--json", "--socket", socket])
        #expect(report.status == 0, "\(report.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        return try #require((object["rows"] as? [[String: Any]])?.first { $0["radio"] as? String == "gnss" })
    }

    /// A real gpsd fed bundg_zeus_9.log (a receiver standing still) over and over, every 5 ms.
    static func startedGpsd() async throws -> GpsdHarness {
        let gpsd = try GpsdHarness(
            log: ProjectPaths.sharedData("nmea/gpsd-3.22/bundg_zeus_9.log"), pace: .interval(.milliseconds(5)), repeats: true)
        try await gpsd.start()
        return gpsd
    }

    @Test func theReportComesThroughTheAPIWhileTheDaemonRunsAndFromTheDatabaseAfter() async throws {
        let gpsd = try await Self.startedGpsd()
        defer { gpsd.shutdown() }
        let directory = try TemporaryDirectory()
        let socket = directory.path("api.sock")
        let db = directory.path("w.sqlite")
        let daemon = try BackgroundProcess.waymark(["serve", "--gpsd", "127.0.0.1:\(gpsd.port)", "--db", db, "--socket", socket])
        #expect(try await BackgroundProcess.waitUntil(timeout: 20) { await Self.fixesRecorded(socket) > 10 }, "\(daemon.stderr.suffix(2000))")
        try await Task.sleep(for: .seconds(1))

        // Through the API: current (the daemon stores its ledger before answering), tracking
        // time priced by the default profile.
        let row = try await Self.gnssRow(socket)
        #expect(row["profile"] as? String == "ublox-m8-usb")
        let seconds = try #require(row["seconds"] as? [String: Double])
        #expect((seconds["tracking"] ?? 0) > 0.5, "\(seconds)")
        #expect((row["joules"] as? Double ?? 0) > 0)
        daemon.send(SIGTERM)
        #expect(try await daemon.wait(timeout: 10) == 0, "\(daemon.stderr.suffix(2000))")

        // From the database after shutdown, by handler: all of it to the daemon (no handlers),
        // at least as much as the API reported.
        let stored = try await runWaymark(["power", "--db", db, "--by", "handler"])
        #expect(stored.status == 0, "\(stored.stderr)")
        let lines = stored.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "energy over the whole ledger, by handler", "\(stored.stdout)")
        #expect(lines.dropFirst().first?.split(separator: " ").prefix(3) == ["HANDLER", "RADIO", "PROFILE"], "\(stored.stdout)")
        #expect(lines.contains { $0.hasPrefix("(daemon)") && $0.contains("gnss") && $0.contains("ublox-m8-usb") && $0.contains("tracking ") }, "\(stored.stdout)")
        #expect(lines.last?.hasPrefix("total ") == true)
        let json = try await runWaymark(["power", "--db", db, "--json", "--since", "2000-01-01T00:00:00Z"])
        #expect(json.stdout.contains("\"from\":\"2000-01-01T00:00:00Z\""), "\(json.stdout)")
        let total = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["totalJoules"] as? Double)
        #expect(total >= (row["joules"] as? Double ?? .infinity))
    }

    static func gnss(_ status: [String: Any]?) -> [String: Any]? {
        (status?["power"] as? [String: Any])?["gnss"] as? [String: Any]
    }

    static func watching(_ status: [String: Any]?) -> Bool? {
        (status?["source"] as? [String: Any])?["watching"] as? Bool
    }

    /// bundg_zeus_9.log sits still at 52.85016 N, 5.31362 E. A 200 m circle 1600 m north puts
    /// the nearest boundary 1400 m away: at automotive speed (90 m/s) no crossing before
    /// (1400 − accuracy) ÷ 90 ≈ 15 s, so the daemon stops watching gpsd for about 14 s (a 1 s
    /// hot start early), then watches again.
    @Test func farFromARegionTheDaemonStopsWatchingGpsdAndResumesInTime() async throws {
        let gpsd = try await Self.startedGpsd()
        defer { gpsd.shutdown() }
        let directory = try TemporaryDirectory()
        let regions = try directory.write(
            "far.geojson",
            #"{"type":"Feature","id":"far","geometry":{"type":"Point","coordinates":[5.31362,"#
                + String(52.850156 + 1600 / 111_195.0) + #"]},"properties":{"radius":200}}"#)
        let config = try directory.write(
            "waymark.yaml",
            "store:\n  record_fixes: false\nregions:\n  paths: \(regions)\npower:\n  aware: true\n  activity: automotive\n")
        let socket = directory.path("api.sock")
        let daemon = try BackgroundProcess.waymark([
            "serve", "--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)", "--db", directory.path("w.sqlite"), "--socket", socket,
        ])
        var asleep: [String: Any]?
        let slept = try await BackgroundProcess.waitUntil(timeout: 20) {
            let status = await Self.status(socket)
            guard Self.gnss(status)?["sampler"] as? String == "sleeping" else { return false }
            asleep = status
            return true
        }
        let lastStatus = slept ? nil : await Self.status(socket)
        #expect(slept, "never slept: \(lastStatus ?? [:]) \(daemon.stderr.suffix(2000))")
        let sleptAt = Date()
        #expect(Self.watching(asleep) == false)
        let untilText = try #require(Self.gnss(asleep)?["sleepingUntil"] as? String)
        let until = try #require(Timestamp(rfc3339: untilText))
        let sleep = until.seconds(since: Timestamp(secondsSince1970: sleptAt.timeIntervalSince1970))
        #expect(sleep > 10 && sleep < 15.5, "sleeping \(sleep) s")
        let recordedAsleep = (asleep?["counters"] as? [String: Int])?["fixesRecorded"] ?? -1

        // Asleep: gpsd is not watched and no fix comes, until shortly before the wake time.
        try await Task.sleep(for: .seconds(max(0, sleep - 3)))
        let stillAsleep = await Self.status(socket)
        #expect(Self.watching(stillAsleep) == false && Self.gnss(stillAsleep)?["state"] as? String == "off")
        #expect((stillAsleep?["counters"] as? [String: Int])?["fixesRecorded"] ?? -2 <= recordedAsleep + 5)

        // Awake again at the time it said: the sleep it announced ended, and fixes came.
        var resumedAt: Date?
        #expect(try await BackgroundProcess.waitUntil(timeout: 8) {
            let gnss = Self.gnss(await Self.status(socket))
            let woke = gnss?["sampler"] as? String != "sleeping" || (gnss?["sleepingUntil"] as? String) != untilText
            if woke { resumedAt = Date() }
            return woke
        }, "\(daemon.stderr.suffix(2000))")
        if let resumedAt {
            let late = resumedAt.timeIntervalSince1970 - until.secondsSince1970
            #expect(late > -0.5 && late < 2, "resumed \(late) s after the announced time")
        }
        #expect(try await BackgroundProcess.waitUntil(timeout: 10) { await Self.fixesRecorded(socket) > recordedAsleep + 5 },
            "no fixes after waking: \(daemon.stderr.suffix(2000))")

        // The ledger has the receiver's time off, and on around it.
        let seconds = try #require(try await Self.gnssRow(socket)["seconds"] as? [String: Double])
        #expect((seconds["off"] ?? 0) > 7, "\(seconds)")
        #expect((seconds["tracking"] ?? 0) + (seconds["acquiring"] ?? 0) > 0, "\(seconds)")
        daemon.send(SIGTERM)
        #expect(try await daemon.wait(timeout: 10) == 0, "\(daemon.stderr.suffix(2000))")
    }

    @Test(arguments: [
        (["power", "--since", "yesterday"], "--since: 'yesterday' is not an RFC 3339 time"),
        (["power", "--by", "hour"], "--by"),
    ])
    func badOptionsAreUsageErrors(arguments: [String], message: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await runWaymark(arguments + ["--db", directory.path("w.sqlite")])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func aMissingDatabaseIsNamed() async throws {
        let result = try await runWaymark(["power", "--db", "/nonexistent/w.sqlite"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no database at /nonexistent/w.sqlite"), "\(result.stderr)")
    }
}
