import Foundation
import Testing
import WaymarkTestSupport

/// A daemon replaying a hand-made track past the mountain hut (a 120 m circle in Regions/),
/// with one handler registered: the project's example handler, which logs each event and
/// notice to a file.
struct HandlerScenario {
    let directory: TemporaryDirectory
    let db: String
    let socket: String
    let out: String

    static let handlerPath = ProjectPaths.repositoryRoot.appendingPathComponent("examples/handlers/event_logger.py").path

    init() async throws {
        directory = try TemporaryDirectory()
        db = directory.path("w.sqlite")
        socket = directory.path("api.sock")
        out = directory.path("events.jsonl")
        let imported = try await runWaymark(["regions", "import", "Regions", "--db", db])
        try #require(imported.status == 0, "\(imported.stderr)")
    }

    /// Registers `name` on the hut with `flags`; `handlerArguments` go to the example handler.
    func register(_ name: String = "hut-log", flags: [String] = [], handlerArguments: [String] = []) async throws {
        let result = try await runWaymark(
            ["handlers", "add", name, "--exec", Self.handlerPath, "--regions", "hut", "--db", db] + flags
                + ["--", "--out", out] + handlerArguments)
        try #require(result.status == 0, "\(result.stderr)")
    }

    /// Writes a track: each leg is (metres north of the hut, seconds), one fix a second from
    /// 2026-06-02T10:00:00Z.
    func track(_ legs: [(north: Double, seconds: Int)]) throws -> String {
        var gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        var second = 0
        for leg in legs {
            let latitude = 47.355 + leg.north / 111_200
            for _ in 0..<leg.seconds {
                let time = String(format: "2026-06-02T%02d:%02d:%02dZ", 10 + second / 3600, (second / 60) % 60, second % 60)
                gpx += "<trkpt lat=\"\(latitude)\" lon=\"8.725\"><time>\(time)</time></trkpt>\n"
                second += 1
            }
        }
        return try directory.write("track.gpx", gpx + "</trkseg></trk></gpx>\n")
    }

    /// A daemon with no receiver (gpsd on a closed port), so only pushes, fetches and the user
    /// wake handlers; `config` adds a configuration file, `environment` replaces the daemon's.
    func serveIdle(config: String? = nil, environment: [String: String]? = nil) throws -> BackgroundProcess {
        var arguments = ["serve", "--gpsd", "127.0.0.1:9", "--db", db, "--socket", socket]
        if let config { arguments += ["--config", config] }
        return try BackgroundProcess(ProjectPaths.waymarkExecutable, arguments, environment: environment)
    }

    func serve(_ track: String, speed: String) throws -> BackgroundProcess {
        try BackgroundProcess.waymark(["serve", "--replay", track, "--speed", speed, "--db", db, "--socket", socket])
    }

    /// The handler's log: events and notices, in the order it wrote them.
    func lines() -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: out, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func events() -> [[String: Any]] { lines().filter { $0["event"] != nil } }

    func handlers() async throws -> [[String: Any]] {
        let result = try await runWaymark(["handlers", "list", "--json", "--socket", socket])
        return result.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func handler(_ name: String = "hut-log") async throws -> [String: Any] {
        try await handlers().first { $0["name"] as? String == name } ?? [:]
    }

    /// Whether the process is suspended: stopped (`T`), or in a frozen v2 cgroup (`frozen 1` in
    /// its cgroup's `cgroup.events`; the unified hierarchy at /sys/fs/cgroup/unified beside v1
    /// ones, or at /sys/fs/cgroup).
    static func isSuspended(_ pid: Int32) -> Bool {
        if processState(pid) == "T" { return true }
        return frozenCgroup(of: pid) != nil
    }

    /// The process's frozen v2 cgroup folder, nil when it is not in one.
    static func frozenCgroup(of pid: Int32) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/cgroup", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        else { return nil }
        for mount in ["/sys/fs/cgroup/unified", "/sys/fs/cgroup"] {
            let folder = mount + line.dropFirst(3)
            if let events = try? String(contentsOfFile: folder + "/cgroup.events", encoding: .utf8) {
                return events.split(separator: "\n").contains("frozen 1") ? folder : nil
            }
        }
        return nil
    }

    /// The state letter of /proc/PID/stat: `T` when stopped.
    static func processState(_ pid: Int32) -> Character? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        return text[text.index(after: close)...].first { $0 != " " }
    }
}
