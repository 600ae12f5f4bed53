import Foundation
import Testing
import WaymarkTestSupport

/// What a user meets first: the daemon run the way the README shows it, with no path options,
/// in a fresh HOME. Tests that always pass --db and --socket never see the default locations.
@Suite struct FirstRunTests {
    /// Where the user's session keeps runtime files: a login session has `XDG_RUNTIME_DIR`
    /// (an existing, empty folder on the first run); a cron job or an SSH command may not.
    enum Runtime: String, CaseIterable, Sendable { case unset, emptyFolder }

    @Test(arguments: Runtime.allCases)
    func theDaemonWithDefaultPathsServesRecordsAndWakesHandlers(_ runtime: Runtime) async throws {
        let session = try FreshSession(runtime)
        let out = session.directory.path("events.jsonl")
        let imported = try await session.waymark(["regions", "import", "Regions"])
        try #require(imported.status == 0, "\(imported.stderr)")
        let added = try await session.waymark(
            ["handlers", "add", "logger", "--exec", HandlerScenario.handlerPath, "--all-regions", "--", "--out", out])
        try #require(added.status == 0, "\(added.stderr)")

        let daemon = try BackgroundProcess(
            ProjectPaths.waymarkExecutable, ["serve", "--replay", "Tracks/lakeside-ride.gpx", "--speed", "20"],
            environment: session.environment, currentDirectory: ProjectPaths.repositoryRoot)
        let status = try await daemon.whileRunning {
            let answered = try await BackgroundProcess.waitUntil(timeout: 30) { try await session.waymark(["status"]).status == 0 }
            try #require(answered, "the daemon never answered at its default socket: \(daemon.stderr.suffix(2000))")
            #expect(session.runtimeFolderMode == 0o700)
            let lastFix = try await BackgroundProcess.waitUntil(timeout: 30) {
                let curl = try await runProcess(
                    URL(fileURLWithPath: "/usr/bin/curl"),
                    ["--silent", "--fail", "--unix-socket", session.socket, "http://localhost/v1/fixes/last"])
                return curl.status == 0 && curl.stdout.contains("\"latitude\"")
            }
            #expect(lastFix, "curl never got a last fix from \(session.socket)")
            let woken = try await BackgroundProcess.waitUntil(timeout: 60) {
                (try? String(contentsOfFile: out, encoding: .utf8))?.contains("\"event\"") ?? false
            }
            #expect(woken, "the handler never received an event: \(daemon.stderr.suffix(2000))")
            let history = try await session.waymark(["history", "--kind", "fix", "--limit", "5"])
            #expect(history.status == 0, "\(history.stderr)")
            #expect(history.stdoutLines.count == 5)
            return try await session.waymark(["status"])
        }
        #expect(status.stdout.contains("\"replay\""), "\(status.stdout)")
        #expect(try await daemon.wait(timeout: 10) == 0, "\(daemon.stderr.suffix(2000))")
        #expect(FileManager.default.fileExists(atPath: session.home + "/.local/share/waymark/waymark.sqlite"))
    }

    /// `--socket` and `--db` in folders that do not exist yet, given relative to where serve
    /// starts: the folders are made, and handlers (which run in `/`) still find the socket.
    @Test func relativePathsInNewFoldersReachHandlers() async throws {
        let session = try FreshSession(.emptyFolder)
        let out = session.directory.path("events.jsonl")
        let work = URL(fileURLWithPath: session.directory.path("home"))
        let root = ProjectPaths.repositoryRoot.path
        let daemon = try BackgroundProcess(
            ProjectPaths.waymarkExecutable,
            ["serve", "--replay", root + "/Tracks/lakeside-ride.gpx", "--regions", root + "/Regions", "--speed", "20",
             "--socket", "run/new/api.sock", "--db", "data/new/w.sqlite"],
            environment: session.environment, currentDirectory: work)
        try await daemon.whileRunning {
            let answered = try await BackgroundProcess.waitUntil(timeout: 30) {
                try await runProcess(
                    ProjectPaths.waymarkExecutable, ["status", "--socket", "run/new/api.sock"], environment: session.environment,
                    currentDirectory: work
                ).status == 0
            }
            try #require(answered, "\(daemon.stderr.suffix(2000))")
            let added = try await runProcess(
                ProjectPaths.waymarkExecutable,
                ["handlers", "add", "logger", "--exec", HandlerScenario.handlerPath, "--all-regions", "--socket", "run/new/api.sock",
                 "--", "--out", out],
                environment: session.environment, currentDirectory: work)
            try #require(added.status == 0, "\(added.stderr)")
            let woken = try await BackgroundProcess.waitUntil(timeout: 60) {
                (try? String(contentsOfFile: out, encoding: .utf8))?.contains("\"event\"") ?? false
            }
            #expect(woken, "the handler never received an event: \(daemon.stderr.suffix(2000))")
        }
        #expect(FileManager.default.fileExists(atPath: work.path + "/data/new/w.sqlite"))
    }
}

/// A new user's environment: an empty HOME, no XDG data or configuration folders, and the
/// runtime folder as `Runtime` says (unset: TMPDIR points into the test's folder, so the
/// `waymark-UID` folder the daemon makes there is the test's own).
struct FreshSession {
    let directory: TemporaryDirectory
    let home: String
    let runtimeFolder: String
    let socket: String
    let environment: [String: String]

    init(_ runtime: FirstRunTests.Runtime) throws {
        directory = try TemporaryDirectory()
        home = directory.path("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        var environment = ProcessInfo.processInfo.environment
        for key in ["XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "WAYMARK_LOG_LEVEL"] { environment[key] = nil }
        environment["HOME"] = home
        switch runtime {
        case .unset:
            let temporary = directory.path("tmp")
            try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
            environment["TMPDIR"] = temporary
            runtimeFolder = temporary + "/waymark-\(geteuid())"
        case .emptyFolder:
            let run = directory.path("run")
            try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: false)
            chmod(run, 0o700)
            environment["XDG_RUNTIME_DIR"] = run
            runtimeFolder = run + "/waymark"
        }
        socket = runtimeFolder + "/api.sock"
        self.environment = environment
    }

    var runtimeFolderMode: mode_t? {
        var info = stat()
        return stat(runtimeFolder, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    /// Runs `waymark` in the repository (where the README's commands run) with this environment.
    func waymark(_ arguments: [String]) async throws -> ProcessResult {
        try await runProcess(ProjectPaths.waymarkExecutable, arguments, environment: environment, currentDirectory: ProjectPaths.repositoryRoot)
    }
}
