import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkDaemon
import WaymarkDevices
import WaymarkStore

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print recorded fixes, gaps and events as JSON Lines, in time order.",
        discussion: """
            Reads the daemon's SpatiaLite database directly (safe while the daemon runs: WAL). \
            Fixes print as {"kind":"fix","time":…,"latitude":…,"longitude":…,…}, gaps as \
            {"kind":"gap",…}, events as `waymark replay` prints them; each ends with the device it \
            came from ("device":"local" for the gpsd receiver; docs/devices.md).
            """)

    @Option(name: .customLong("db"), help: "SpatiaLite database (default: the daemon's, $XDG_DATA_HOME/waymark/waymark.sqlite).")
    var database: String?

    @Option(help: "Only records at or after this RFC 3339 time.")
    var from: String?

    @Option(help: "Only records before this RFC 3339 time.")
    var to: String?

    @Option(name: .customLong("kind"), help: "fix, gap or event; repeat for several (default: all).")
    var kinds: [String] = []

    @Option(help: "At most this many records.")
    var limit: Int?

    @Option(name: .customLong("device"), help: "Only this device's records; repeat for several (default: every device's).")
    var devices: [String] = []

    func run() throws {
        let from = try from.map { try Self.time($0, option: "--from") }
        let to = try to.map { try Self.time($0, option: "--to") }
        var selected = Set<HistoryKind>()
        for kind in kinds {
            guard let parsed = HistoryKind(rawValue: kind) else {
                throw ValidationError("--kind must be fix, gap or event, got '\(kind)'")
            }
            selected.insert(parsed)
        }
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
        for device in devices {
            if let problem = DeviceName.problem(with: device) { throw ValidationError("--device: \(problem)") }
        }
        let path = database ?? DefaultLocations.database(system: false)
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandError("no database at \(path): nothing has been recorded there (start `waymark serve`, or give --db)")
        }
        let store = try WaymarkStore(path: path, logger: CommandLogging.logger("waymark.history"))
        let query = HistoryQuery(
            from: from, to: to, kinds: selected.isEmpty ? Set(HistoryKind.allCases) : selected, limit: limit,
            devices: devices.isEmpty ? nil : Set(devices))
        try store.history(query) { print($0.jsonLine) }
    }

    static func time(_ text: String, option: String) throws -> Timestamp {
        guard let time = Timestamp(rfc3339: text) else {
            throw ValidationError("\(option): '\(text)' is not an RFC 3339 time such as 2026-06-01T08:00:00Z")
        }
        return time
    }
}
