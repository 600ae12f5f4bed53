import Foundation
import Logging
import Testing
import WaymarkCore
import WaymarkStore
import WaymarkTestSupport

/// `waymark devices …` as a user runs it, in a fresh HOME: straight into the default database
/// with no daemon, and through the daemon's API when one answers. The secret printed is checked
/// against the real store file.
@Suite struct DevicesCommandTests {
    static func secret(in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("secret: ") }.map { String($0.dropFirst("secret: ".count)) }
    }

    func storedDevice(_ session: FreshSession, _ name: String) throws -> (accepts: (String) -> Bool, user: String)? {
        let store = try WaymarkStore(
            path: session.home + "/.local/share/waymark/waymark.sqlite", logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        guard let device = try store.device(named: name) else { return nil }
        return (device.accepts, device.user)
    }

    @Test func withoutADaemonDevicesGoIntoTheDefaultDatabase() async throws {
        let session = try FreshSession(.emptyFolder)
        let listed = try await session.waymark(["devices", "list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.hasPrefix("local\tuser local\tno secret\tadded "), "\(listed.stdout)")

        let added = try await session.waymark(["devices", "add", "phone", "--user", "alice"])
        try #require(added.status == 0, "\(added.stderr)")
        let first = try #require(Self.secret(in: added.stdout), "\(added.stdout)")
        #expect(first.count == 43)
        let stored = try #require(try storedDevice(session, "phone"))
        #expect(stored.accepts(first) && stored.user == "alice")

        let renewed = try await session.waymark(["devices", "token", "phone"])
        try #require(renewed.status == 0, "\(renewed.stderr)")
        let second = try #require(Self.secret(in: renewed.stdout))
        let after = try #require(try storedDevice(session, "phone"))
        #expect(after.accepts(second) && !after.accepts(first))

        let json = try await session.waymark(["devices", "list", "--json"])
        #expect(json.stdoutLines.count == 2)
        #expect(json.stdoutLines.last?.contains(#""secretHint":"\#(second.prefix(4))""#) == true, "\(json.stdout)")
        #expect(!json.stdout.contains(second))

        let removed = try await session.waymark(["devices", "remove", "phone"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try storedDevice(session, "phone") == nil)
    }

    @Test(arguments: [
        (["devices", "add", "owntracks/alice"], "name: the device name 'owntracks/alice' is not 1–64 letters"),
        (["devices", "add", "phone", "--user", "a b"], "--user: the device name 'a b' is not"),
        (["devices", "remove", "local"], "'local' is the gpsd receiver and cannot be removed"),
        (["devices", "token", "local"], "'local' is the gpsd receiver: it takes no secret"),
        (["devices", "remove", "nobody"], "no device named 'nobody'"),
        (["devices", "token", "nobody"], "no device named 'nobody'"),
    ])
    func mistakesAreNamedAndChangeNothing(arguments: [String], message: String) async throws {
        let session = try FreshSession(.emptyFolder)
        let result = try await session.waymark(arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        let listed = try await session.waymark(["devices", "list"])
        #expect(listed.stdoutLines.count == 1, "\(listed.stdout)")
    }

    @Test func aDuplicateIsRefused() async throws {
        let session = try FreshSession(.emptyFolder)
        #expect(try await session.waymark(["devices", "add", "phone"]).status == 0)
        let again = try await session.waymark(["devices", "add", "phone"])
        #expect(again.status != 0)
        #expect(again.stderr.contains("a device named 'phone' exists"), "\(again.stderr)")
    }

    @Test func withADaemonRunningTheCommandsGoThroughItsAPI() async throws {
        let session = try FreshSession(.emptyFolder)
        let daemon = try BackgroundProcess(
            ProjectPaths.waymarkExecutable, ["serve", "--replay", "Tracks/lakeside-ride.gpx", "--speed", "1"],
            environment: session.environment, currentDirectory: ProjectPaths.repositoryRoot)
        try await daemon.whileRunning {
            let answered = try await BackgroundProcess.waitUntil(timeout: 30) { try await session.waymark(["status"]).status == 0 }
            try #require(answered, "\(daemon.stderr.suffix(2000))")
            let added = try await session.waymark(["devices", "add", "tracker"])
            try #require(added.status == 0, "\(added.stderr)")
            let secret = try #require(Self.secret(in: added.stdout))
            // The daemon logged it: the request went through the API, not around it.
            let logged = try await BackgroundProcess.waitUntil(timeout: 10) { daemon.stderr.contains("device added") }
            #expect(logged, "\(daemon.stderr.suffix(2000))")
            #expect(try storedDevice(session, "tracker")?.accepts(secret) == true)
            let listed = try await session.waymark(["devices", "list"])
            #expect(listed.stdoutLines.map { $0.split(separator: "\t").first.map(String.init) } == ["local", "tracker"])
            let removed = try await session.waymark(["devices", "remove", "tracker"])
            #expect(removed.status == 0, "\(removed.stderr)")
            let missing = try await session.waymark(["devices", "remove", "tracker"])
            #expect(missing.stderr.contains("no device named 'tracker'"), "\(missing.stderr)")
        }
    }
}

/// `waymark history --device`: a device's rows only, each line naming its device.
@Suite struct HistoryDeviceFilterTests {
    @Test func historyFiltersByDevice() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let store = try WaymarkStore(path: db, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let fix = Fix(time: Timestamp(secondsSince1970: 1_780_300_800), coordinate: Coordinate(latitude: 47.36, longitude: 8.55))
        try store.recordFix(fix, source: "owntracks", device: "phone")
        try store.recordFix(fix, source: "gpsd:127.0.0.1:2947")
        try store.recordGap(time: fix.time!, reason: "silent", source: "osmand", device: "tracker")

        let phone = try await runWaymark(["history", "--db", db, "--device", "phone"])
        #expect(phone.status == 0, "\(phone.stderr)")
        #expect(phone.stdoutLines == [
            #"{"kind":"fix","time":"2026-06-01T08:00:00Z","latitude":47.36,"longitude":8.55,"source":"owntracks","device":"phone"}"#
        ])
        let two = try await runWaymark(["history", "--db", db, "--device", "phone", "--device", "tracker"])
        #expect(two.stdoutLines.count == 2)
        #expect(try await runWaymark(["history", "--db", db]).stdoutLines.count == 3)
        let bad = try await runWaymark(["history", "--db", db, "--device", "a/b"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--device: the device name 'a/b' is not"), "\(bad.stderr)")
    }
}

/// `waymark export --db --device` and `stats --db --device`: one device's fixes make one track.
@Suite struct ExportDeviceTests {
    @Test func eachDeviceExportsItsOwnTrackAndLocalIsTheDefault() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let store = try WaymarkStore(path: db, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let start = 1_780_300_800.0
        for index in 0..<5 {
            let time = Timestamp(secondsSince1970: start + Double(index) * 10)
            try store.recordFix(Fix(time: time, coordinate: Coordinate(latitude: 47.0 + Double(index) * 0.001, longitude: 8.0)), source: "owntracks", device: "phone")
            if index < 3 {
                try store.recordFix(Fix(time: time, coordinate: Coordinate(latitude: 46.0, longitude: 7.0 + Double(index) * 0.001)), source: "gpsd")
            }
        }
        func points(_ arguments: [String]) async throws -> Int {
            let output = directory.path("out-\(arguments.joined()).geojson")
            let result = try await runWaymark(["export", "--db", db, "--format", "geojson", "-o", output] + arguments)
            try #require(result.status == 0, "\(result.stderr)")
            let counted = try await runPython(
                "import json,sys; d=json.load(open(sys.argv[1])); print(sum(len(f['geometry']['coordinates']) for f in d['features'] if f['geometry'] and f['geometry']['type']=='LineString'))",
                [output])
            return Int(counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        #expect(try await points(["--device", "phone"]) == 5)
        #expect(try await points([]) == 3)
        let stats = try await runWaymark(["stats", "--db", db, "--device", "phone", "--json"])
        #expect(stats.status == 0 && stats.stdout.contains(#""points":5"#), "\(stats.stdout)\(stats.stderr)")
        let bad = try await runWaymark(["export", "Tracks/lakeside-ride.gpx", "--device", "phone", "--format", "gpx", "-o", directory.path("x.gpx")])
        #expect(bad.status != 0 && bad.stderr.contains("--from, --to and --device go with --db"), "\(bad.stderr)")
    }
}
