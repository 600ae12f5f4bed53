import Foundation
import Testing
import WaymarkTestSupport

/// `waymark regions add`: a circle with its own timing (issue 38), into a store or through a
/// running daemon, and each bad flag refused with the flag and the value named.
@Suite struct RegionsAddCommandTests {
    static let home = [
        "regions", "add", "home", "--center", "-33.8568,151.2153", "--radius", "60", "--enter-delay", "30",
        "--exit-delay", "180", "--margin", "25", "--max-accuracy", "100", "--priority", "10", "--no-notify-on-entry",
    ]
    static let homeSummary = #"{"identifier":"home","kind":"circle","center":{"latitude":-33.8568,"longitude":151.2153},"radius":60,"#
        + #""properties":{"radius":60,"enterDelay":30,"exitDelay":180,"margin":25,"maxAccuracy":100,"priority":10,"notifyOnEntry":false},"#
        + #""options":{"notifyOnEntry":false,"notifyOnExit":true,"initialTrigger":false,"loiteringDelay":null,"enterDelay":30,"exitDelay":180,"margin":25,"maxAccuracy":100,"priority":10}}"#

    @Test func addsIntoAFreshStoreAndListsTheEffectiveOptions() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("fresh/regions.sqlite")
        let added = try await runWaymark(Self.home + ["--db", db])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "added region home\n")
        let plain = try await runWaymark(["regions", "add", "shop", "--center", "48.137, 11.575", "--radius", "40", "--priority", "-5", "--db", db])
        #expect(plain.status == 0, "\(plain.stderr)")
        let list = try await runWaymark(["regions", "list", "--db", db])
        #expect(list.stdoutLines.first == Self.homeSummary)
        // Defaults filled in: 20 s delays, a fifth of the radius as margin, no accuracy limit; a negative priority.
        #expect(list.stdoutLines.last?.hasSuffix(
            #""options":{"notifyOnEntry":true,"notifyOnExit":true,"initialTrigger":false,"loiteringDelay":null,"enterDelay":20,"exitDelay":20,"margin":8,"maxAccuracy":null,"priority":-5}}"#
        ) == true, "\(list.stdout)")
    }

    @Test func anExistingIdentifierNeedsReplace() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("regions.sqlite")
        #expect(try await runWaymark(Self.home + ["--db", db]).status == 0)
        let again = try await runWaymark(["regions", "add", "home", "--center", "1,2", "--radius", "5", "--db", db])
        #expect(again.status == 1)
        #expect(again.stderr.contains("home"), "\(again.stderr)")
        #expect(try await runWaymark(["regions", "list", "--db", db]).stdoutLines == [Self.homeSummary])
        let replaced = try await runWaymark(["regions", "add", "home", "--center", "1,2", "--radius", "5", "--replace", "--db", db])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(replaced.stdout == "replaced region home\n")
        #expect(try await runWaymark(["regions", "list", "--db", db]).stdout.contains(#""center":{"latitude":1,"longitude":2},"radius":5"#))
    }

    @Test(arguments: [
        (["--center", "48.1"], "--center must be LAT,LON in degrees (e.g. 48.137,11.575), got '48.1'"),
        (["--center", "north,east"], "got 'north,east'"),
        (["--center", "91,0"], "--center '91,0': latitude must be within -90…90"),
        (["--center", "0,-181"], "--center '0,-181'"),
        (["--radius", "0"], "--radius must be metres > 0 and at most 1000000, got 0"),
        (["--radius", "2e6"], "--radius must be metres > 0 and at most 1000000, got 2000000"),
        (["--enter-delay", "-1"], "--enter-delay must be a finite number ≥ 0, got -1"),
        (["--exit-delay", "nan"], "--exit-delay must be a finite number ≥ 0, got nan"),
        (["--margin", "-5"], "--margin must be a finite number ≥ 0, got -5"),
        (["--max-accuracy", "0"], "--max-accuracy must be a finite number of metres > 0, got 0"),
        (["--priority", "1000001"], "--priority must be an integer within -1000000…1000000, got 1000001"),
        (["--priority", "-1000001"], "--priority must be an integer within -1000000…1000000, got -1000001"),
        (["--priority", "1.5"], "'1.5'"),
        (["--margin", "wide"], "'wide'"),
    ])
    func aBadFlagIsAUsageErrorNamingIt(_ flag: [String], _ message: String) async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("regions.sqlite")
        var arguments = ["regions", "add", "x", "--center", "48.1,11.5", "--radius", "50", "--db", db]
        if let at = arguments.firstIndex(of: flag[0]) {
            arguments[at + 1] = flag[1]
        } else {
            arguments += flag
        }
        let result = try await runWaymark(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.contains(flag[0]), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "nothing is written")
    }

    /// With a daemon running, `regions add` goes through its API, so it monitors the region at
    /// once; `GET /v1/regions/{id}` shows the effective options, and a bad option posted as
    /// GeoJSON is a 400 naming its line, column and field.
    @Test func goesThroughARunningDaemon() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.path("api.sock")
        let db = directory.path("w.sqlite")
        let daemon = try BackgroundProcess.waymark([
            "serve", "--replay", "Tracks/lakeside-ride.gpx", "--speed", "1", "--db", db, "--socket", socket,
        ])
        #expect(try await BackgroundProcess.waitUntil(timeout: 20) { unixSocketAccepts(path: socket) }, "\(daemon.stderr)")
        let added = try await runWaymark(Self.home + ["--socket", socket])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains(#""inserted":["home"]"#), "\(added.stdout)")
        let duplicate = try await runWaymark(Self.home + ["--socket", socket])
        #expect(duplicate.status == 1)
        #expect(duplicate.stderr.contains("the daemon answered 409"), "\(duplicate.stderr)")

        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        let feature = try await runProcess(curl, ["-s", "--unix-socket", socket, "http://localhost/v1/regions/home"])
        #expect(feature.stdout.hasSuffix(
            #""options":{"notifyOnEntry":false,"notifyOnExit":true,"initialTrigger":false,"loiteringDelay":null,"enterDelay":30,"exitDelay":180,"margin":25,"maxAccuracy":100,"priority":10}}"#
        ), "\(feature.stdout)")
        let listed = try await runWaymark(["regions", "list", "--socket", socket])
        #expect(listed.stdoutLines == [Self.homeSummary], "\(listed.stdout)")

        let bad = "{\"type\":\"Feature\",\"id\":\"gym\",\n \"properties\":{\"radius\":30,\"maxAccuracy\":0},\n"
            + " \"geometry\":{\"type\":\"Point\",\"coordinates\":[151.2,-33.8]}}"
        let refused = try await runProcess(curl, [
            "-s", "-w", "\n%{http_code}", "--unix-socket", socket, "-H", "Content-Type: application/json", "--data-binary", bad, "http://localhost/v1/regions",
        ])
        #expect(refused.stdoutLines.last == "400", "\(refused.stdout)")
        #expect(refused.stdout.contains("geojson.invalid-option"), "\(refused.stdout)")
        #expect(refused.stdout.contains(#""location":{"file":"request body","line":2,"column":42}"#), "\(refused.stdout)")
        #expect(refused.stdout.contains(#""path":"properties.maxAccuracy""#), "\(refused.stdout)")
        daemon.send(SIGTERM)
        #expect(try await daemon.wait(timeout: 10) == 0, "\(daemon.stderr)")
    }
}
