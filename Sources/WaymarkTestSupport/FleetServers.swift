import Foundation

/// PostgreSQL+PostGIS and nats-server for a test, started by `scripts/fleet-up.sh --servers-only`
/// in a private directory and stopped by `scripts/fleet-down.sh --purge`.
///
/// Each instance has servers of its own (a fresh cluster with the `waymark` database and PostGIS,
/// a JetStream server with an empty store) on free ports of 127.0.0.1, so tests running in
/// parallel never share them. Starting takes about 2 s, stopping a fraction of a second.
///
///     try await FleetServers.withServers { servers in
///         // servers.postgresURL, servers.natsURL
///     }
///
/// The scripts run as child processes the caller waits for by polling (``BackgroundProcess``),
/// so no thread of the cooperative pool is blocked meanwhile. An instance released without
/// ``stop()`` still has its servers stopped, in the background (a safety net, not the way).
public final class FleetServers: Sendable {
    /// `postgres://waymark@127.0.0.1:PORT/waymark`: the superuser `waymark`, trust
    /// authentication, PostGIS installed.
    public let postgresURL: String
    /// `nats://127.0.0.1:PORT`, JetStream enabled.
    public let natsURL: String
    /// The private directory (DIR of fleet-up.sh): the cluster in `pg/`, JetStream's store in
    /// `nats/`, the logs `pg.log` and `nats.log`. Removed by ``stop()``.
    public let directory: URL
    /// Every setting of `DIR/fleet.env`: `WAYMARK_POSTGRES`, `WAYMARK_NATS`,
    /// `WAYMARK_NATS_MONITOR`, `WAYMARK_FLEET_DIR` — ready to add to a child's environment.
    public let environment: [String: String]

    private let stopped = StopFlag()

    private init(directory: URL, environment: [String: String]) throws {
        guard let postgres = environment["WAYMARK_POSTGRES"], let nats = environment["WAYMARK_NATS"] else {
            throw FleetServersError(
                "\(directory.path)/fleet.env lacks WAYMARK_POSTGRES or WAYMARK_NATS: \(environment)")
        }
        self.directory = directory
        self.environment = environment
        postgresURL = postgres
        natsURL = nats
    }

    /// Starts the servers in a new directory under the temporary folder; waits up to `timeout`
    /// seconds for `fleet-up.sh` to report them ready. On failure (or cancellation) whatever was
    /// started is stopped and the directory removed; the error carries the script's output.
    public static func start(timeout: Double = 120) async throws -> FleetServers {
        // Short: PostgreSQL's socket, DIR/pg-socket/.s.PGSQL.PORT, must fit in 107 bytes.
        let name = "waymark-fleet-" + UUID().uuidString.prefix(8).lowercased()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)

        let status: Int32?
        let script: BackgroundProcess
        do {
            script = try runScript("fleet-up.sh", ["--servers-only", "--dir", directory.path])
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        do {
            status = try await script.wait(timeout: timeout)
        } catch {  // cancelled: the script's trap stops what it started on SIGTERM; then make sure
            script.send(SIGTERM)
            await cleanUp(script, directory)
            throw error
        }
        guard status == 0 else {
            let what = status.map { "failed (status \($0))" } ?? "did not finish within \(Int(timeout)) s"
            if status == nil { script.send(SIGTERM) }
            await cleanUp(script, directory)
            throw FleetServersError("scripts/fleet-up.sh \(what):\n\(script.stderr)")
        }
        do {
            let envFile = directory.appendingPathComponent("fleet.env")
            let text = try String(contentsOf: envFile, encoding: .utf8)
            return try FleetServers(directory: directory, environment: parseEnvironment(text))
        } catch {
            await cleanUp(script, directory)
            throw error
        }
    }

    /// Stops both servers (`fleet-down.sh --purge`: SIGTERM to nats-server, `pg_ctl stop -m fast`)
    /// and removes the directory. Runs to the end even if the calling task is cancelled (the
    /// servers would be left running otherwise). Calling it again does nothing.
    public func stop(timeout: Double = 120) async throws {
        guard stopped.set() else { return }
        let directory = directory
        // An unstructured task: it does not inherit the caller's cancellation.
        try await Task {
            let script = try Self.runScript("fleet-down.sh", ["--dir", directory.path, "--purge"])
            guard let status = try await script.wait(timeout: timeout) else {
                script.send(SIGTERM)
                throw FleetServersError("scripts/fleet-down.sh did not finish within \(Int(timeout)) s:\n\(script.stderr)")
            }
            guard status == 0 else {
                throw FleetServersError("scripts/fleet-down.sh failed (status \(status)):\n\(script.stderr)")
            }
        }.value
    }

    /// Starts servers, runs `body` with them, and stops them whether `body` returned or threw.
    public static func withServers<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (FleetServers) async throws -> T
    ) async throws -> T {
        let servers = try await start()
        let result: T
        do {
            result = try await body(servers)
        } catch {
            try? await servers.stop()
            throw error
        }
        try await servers.stop()
        return result
    }

    deinit {
        guard stopped.set() else { return }
        // Not awaited (deinit cannot): fleet-down runs on by itself and removes the directory.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.script("fleet-down.sh"), "--dir", directory.path, "--purge"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }

    // MARK: - Helpers

    /// The `KEY=value` lines of a fleet.env (blank lines and `#` comments skipped).
    static func parseEnvironment(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return values
    }

    private static func script(_ name: String) -> String {
        ProjectPaths.repositoryRoot.appendingPathComponent("scripts/\(name)").path
    }

    /// Starts `bash scripts/NAME ARGUMENTS…` from the repository's root (bash named explicitly:
    /// the scripts work even where their executable bit was lost).
    private static func runScript(_ name: String, _ arguments: [String]) throws -> BackgroundProcess {
        try BackgroundProcess(
            URL(fileURLWithPath: "/bin/bash"), [script(name)] + arguments,
            currentDirectory: ProjectPaths.repositoryRoot)
    }

    /// After a failed or abandoned start: lets fleet-up's own cleanup finish, then runs
    /// fleet-down --purge in case anything is left, in a task the caller's cancellation cannot
    /// cut short.
    private static func cleanUp(_ script: BackgroundProcess, _ directory: URL) async {
        await Task {
            if (try? await script.wait(timeout: 30)) == nil { script.send(SIGKILL) }
            if let down = try? runScript("fleet-down.sh", ["--dir", directory.path, "--purge"]) {
                _ = try? await down.wait(timeout: 120)
            }
            try? FileManager.default.removeItem(at: directory)
        }.value
    }
}

/// A failure of `scripts/fleet-up.sh` or `scripts/fleet-down.sh`, with their output.
public struct FleetServersError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Whether stopping has begun: set once, by ``FleetServers/stop(timeout:)`` or the deinit.
private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false

    /// Sets the flag; true if this call set it, false if it was set already.
    func set() -> Bool {
        lock.withLock {
            defer { isSet = true }
            return !isSet
        }
    }
}
