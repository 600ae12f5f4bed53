import Foundation
import Testing
import WaymarkTestSupport

/// A browser script of `Tests/Browser` against `waymark serve` with a TCP listener and a token:
/// the daemon started with `serve` and a database, socket, port and token of its own, the
/// script given `--url`, `--token`, `--waymark`, `--db` and `--openapi` before `arguments`.
/// An issue is recorded, with the script's output and the daemon's log, unless it exits 0.
enum BrowserScriptRun {
    /// A file of the repository (a sample track, the sample regions), by its path there.
    static func project(_ path: String) -> String { ProjectPaths.repositoryRoot.appendingPathComponent(path).path }

    /// Where a script saves its picture: the path in the environment's `variable` when set (to
    /// retake a picture the docs show), else `name` in `directory`.
    static func screenshot(_ variable: String, _ name: String, in directory: TemporaryDirectory) -> String {
        ProcessInfo.processInfo.environment[variable] ?? directory.path(name)
    }

    static func run(_ script: String, serve: [String], arguments: [String], in directory: TemporaryDirectory) async throws {
        let db = directory.path("w.sqlite")
        let token = "browser-test-token"
        let tokenFile = try directory.writeSecret("token", token + "\n")
        let port = try freeLoopbackPort()
        let daemon = try BackgroundProcess.waymark(
            ["serve"] + serve + ["--db", db, "--socket", directory.path("api.sock"), "--tcp-port", "\(port)", "--token-file", tokenFile])
        try await daemon.whileRunning {
            let listening = try await BackgroundProcess.waitUntil(timeout: 30) { loopbackAccepts(port: port) }
            try #require(listening, "the API never listened on \(port): \(daemon.stderr.suffix(2000))")
            let result = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/python3"),
                [
                    ProjectPaths.repositoryRoot.appendingPathComponent("Tests/Browser/\(script)").path,
                    "--url", "http://127.0.0.1:\(port)/", "--token", token, "--waymark", ProjectPaths.waymarkExecutable.path, "--db", db,
                    "--openapi", ProjectPaths.repositoryRoot.appendingPathComponent("docs/openapi.yaml").path,
                ] + arguments)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)\n--- daemon ---\n\(daemon.stderr.suffix(3000))")
        }
    }
}
