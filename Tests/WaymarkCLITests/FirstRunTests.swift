import Foundation
import Testing
import WaymarkTestSupport

/// What a user meets first: `waymark serve` with no path options, in a fresh HOME whose runtime
/// folder is empty. Tests that always pass --db and --socket never see the default locations.
@Suite struct FirstRunTests {
    @Test func serveWithDefaultPathsInAFreshHomeStartsAndRecords() async throws {
        let directory = try TemporaryDirectory()
        let home = directory.path("home")
        let runtime = directory.path("run")
        for folder in [home, runtime] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false) }
        chmod(runtime, 0o700)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["XDG_DATA_HOME"] = nil
        let served = try await runProcess(
            ProjectPaths.waymarkExecutable, ["serve", "--replay", "Tracks/lakeside-ride.gpx", "--fast", "--exit-after-replay"],
            environment: environment, currentDirectory: ProjectPaths.repositoryRoot)
        #expect(served.status == 0, "\(served.stderr.suffix(2000))")
        let database = home + "/.local/share/waymark/waymark.sqlite"
        #expect(FileManager.default.fileExists(atPath: database), "no database at the default path")
        let history = try await runProcess(
            ProjectPaths.waymarkExecutable, ["history", "--kind", "fix"], environment: environment,
            currentDirectory: ProjectPaths.repositoryRoot)
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdoutLines.count == 2974)
    }
}
