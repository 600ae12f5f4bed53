import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// `waymark power` reporting a daemon's energy ledger through the API and from the database.
@Suite(.serialized) struct ServePowerTests {
    static let curl = URL(fileURLWithPath: "/usr/bin/curl")

    static func status(_ socket: String) -> [String: Any]? {
        guard let result = try? runProcess(curl, ["-s", "--unix-socket", socket, "http://localhost/v1/status"]) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any]
    }

    static func fixesRecorded(_ socket: String) -> Int {
        (status(socket)?["counters"] as? [String: Int])?["fixesRecorded"] ?? 0
    }

    /// The GNSS row of `waymark power --json` through the daemon at `socket`.
    static func gnssRow(_ socket: String) throws -> [String: Any] {
        let report = try runWaymark(["power", "--json", "--socket", socket])
        #expect(report.status == 0, "\(report.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        return try #require((object["rows"] as? [[String: Any]])?.first { $0["radio"] as? String == "gnss" })
    }

    @Test func theReportComesThroughTheAPIWhileTheDaemonRunsAndFromTheDatabaseAfter() throws {
        let gpsd = try GpsdHarness(
            log: ProjectPaths.sharedData("nmea/gpsd-3.22/bundg_zeus_9.log"), pace: .interval(.milliseconds(5)), repeats: true)
        try gpsd.start()
        defer { gpsd.shutdown() }
        let directory = try TemporaryDirectory()
        let socket = directory.path("api.sock")
        let db = directory.path("w.sqlite")
        let daemon = try BackgroundProcess.waymark(["serve", "--gpsd", "127.0.0.1:\(gpsd.port)", "--db", db, "--socket", socket])
        #expect(BackgroundProcess.waitUntil(timeout: 20) { Self.fixesRecorded(socket) > 10 }, "\(daemon.stderr.suffix(2000))")
        Thread.sleep(forTimeInterval: 1)

        // Through the API: current (the daemon stores its ledger before answering), tracking
        // time priced by the default profile.
        let row = try Self.gnssRow(socket)
        #expect(row["profile"] as? String == "ublox-m8-usb")
        let seconds = try #require(row["seconds"] as? [String: Double])
        #expect((seconds["tracking"] ?? 0) > 0.5, "\(seconds)")
        #expect((row["joules"] as? Double ?? 0) > 0)
        daemon.send(SIGTERM)
        #expect(daemon.wait(timeout: 10) == 0, "\(daemon.stderr.suffix(2000))")

        // From the database after shutdown, by handler: all of it to the daemon (no handlers),
        // at least as much as the API reported.
        let stored = try runWaymark(["power", "--db", db, "--by", "handler"])
        #expect(stored.status == 0, "\(stored.stderr)")
        let lines = stored.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "energy over the whole ledger, by handler", "\(stored.stdout)")
        #expect(lines.dropFirst().first?.split(separator: " ").prefix(3) == ["HANDLER", "RADIO", "PROFILE"], "\(stored.stdout)")
        #expect(lines.contains { $0.hasPrefix("(daemon)") && $0.contains("gnss") && $0.contains("ublox-m8-usb") && $0.contains("tracking ") }, "\(stored.stdout)")
        #expect(lines.last?.hasPrefix("total ") == true)
        let json = try runWaymark(["power", "--db", db, "--json", "--since", "2000-01-01T00:00:00Z"])
        #expect(json.stdout.contains("\"from\":\"2000-01-01T00:00:00Z\""), "\(json.stdout)")
        let total = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["totalJoules"] as? Double)
        #expect(total >= (row["joules"] as? Double ?? .infinity))
    }

    @Test(arguments: [
        (["power", "--since", "yesterday"], "--since: 'yesterday' is not an RFC 3339 time"),
        (["power", "--by", "hour"], "--by"),
    ])
    func badOptionsAreUsageErrors(arguments: [String], message: String) throws {
        let directory = try TemporaryDirectory()
        let result = try runWaymark(arguments + ["--db", directory.path("w.sqlite")])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func aMissingDatabaseIsNamed() throws {
        let result = try runWaymark(["power", "--db", "/nonexistent/w.sqlite"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no database at /nonexistent/w.sqlite"), "\(result.stderr)")
    }
}
