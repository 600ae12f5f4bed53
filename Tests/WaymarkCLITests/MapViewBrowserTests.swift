import Foundation
import Testing
import WaymarkTestSupport

/// The web page's map (issue 42) in headless Chromium, one replayed track per check:
/// `Tests/Browser/map_tracks.py` makes the tracks and regions in the test's directory,
/// `Tests/Browser/map_view.py --scenario NAME` does the checking against `waymark serve` replaying
/// that scenario's track (BrowserScriptRun). Each scenario also checks the page's rules: named
/// controls in Chromium's accessibility tree in every view, the header on one row at 390 px,
/// documented requests only, no console errors.
@Suite(.serialized) struct MapViewBrowserTests {
    static let basemap = "/usr/local/share/waymark/basemap.mbtiles"

    /// Writes the scenarios' files into `directory`; the scenario's replay flags.
    static func tracks(_ scenario: String, in directory: TemporaryDirectory) async throws -> [String] {
        let made = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [BrowserScriptRun.project("Tests/Browser/map_tracks.py"), directory.url.path])
        try #require(made.status == 0, "map_tracks.py: \(made.stderr)")
        let flags = try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: [String]]
        return try #require(flags?[scenario], "map_tracks.py has no scenario \(scenario): \(made.stdout)")
    }

    /// Runs `map_view.py --scenario` against a daemon replaying the scenario's track over its regions.
    static func check(_ scenario: String, serve: [String] = [], arguments: [String] = [], in given: TemporaryDirectory? = nil) async throws {
        let directory = try given ?? TemporaryDirectory()
        let replay = try await tracks(scenario, in: directory)
        try await BrowserScriptRun.run(
            "map_view.py",
            serve: ["--replay", directory.path("\(scenario).gpx"), "--regions", directory.path("\(scenario).geojson")] + replay + serve,
            arguments: ["--scenario", scenario] + arguments, in: directory)
    }

    @Test func circlesAreDrawnAtTheirTrueRadiusAtTwoLatitudes() async throws {
        try await Self.check("scale")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: basemap), "the basemap (\(basemap)) is not installed: scripts/install-dependencies.sh makes it"))
    func theInstalledBasemapLoadsWithNoNetwork() async throws {
        try await Self.check("basemap")
    }

    @Test func theTrailCoversTheChosenMinutesAndFades() async throws {
        try await Self.check("trail")
    }

    @Test func followKeepsTheDeviceInViewUntilTheMapIsDragged() async throws {
        try await Self.check("follow")
    }

    /// The receiver's replay and a phone posting OwnTracks over HTTP, registered before the
    /// daemon starts in the database BrowserScriptRun gives it.
    @Test func twoDevicesAreShownAtOnceInTheirOwnColours() async throws {
        let directory = try TemporaryDirectory()
        let added = try await runWaymark(["devices", "add", "phone", "--user", "alice", "--db", directory.path("w.sqlite")])
        let secret = try #require(DevicesCommandTests.secret(in: added.stdout), "\(added.stdout)\(added.stderr)")
        let port = try freeLoopbackPort()
        try await Self.check(
            "devices", serve: ["--listen", "127.0.0.1:\(port)"],
            arguments: ["--device-port", "\(port)", "--device-user", "alice", "--device-name", "phone", "--device-secret", secret], in: directory)
    }

    @Test func anEventsButtonCentresTheMapOnIt() async throws {
        try await Self.check("locate")
    }

    @Test func historyOpensOnTheLatestLocalDayWithACalendarAndAHeatMap() async throws {
        try await Self.check("history")
    }

    @Test func everyFocusableNodeIsNamedAndRegionsSortNaturally() async throws {
        try await Self.check("a11y")
    }

    /// The project's sample ride over its sample regions, as the README shows it: every region
    /// drawn and History opening on the whole ride. The picture is the README's
    /// (`WAYMARK_MAP_SCREENSHOT=docs/images/web-page.png`).
    @Test func theSampleRideAsTheReadmeShowsIt() async throws {
        let directory = try TemporaryDirectory()
        let (track, regions) = (BrowserScriptRun.project("Tracks/lakeside-ride.gpx"), BrowserScriptRun.project("Regions"))
        let screenshot = BrowserScriptRun.screenshot("WAYMARK_MAP_SCREENSHOT", "ride.png", in: directory)
        try await BrowserScriptRun.run(
            "map_view.py", serve: ["--replay", track, "--regions", regions],
            arguments: ["--scenario", "ride", "--track", track, "--regions", regions, "--screenshot", screenshot], in: directory)
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }
}
