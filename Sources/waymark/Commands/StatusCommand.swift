import ArgumentParser
import WaymarkAPI
import WaymarkDaemon

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Ask the running daemon how it is: source, last fix, counters (JSON).",
        discussion: "Talks to `waymark serve` over its API socket (GET /v1/status). Exit status 1 when no daemon answers.")

    @Option(help: "The daemon's API socket (default: $XDG_RUNTIME_DIR/waymark/api.sock).")
    var socket: String?

    @Flag(help: "Use the system service's socket (/run/waymark/api.sock).")
    var system = false

    func run() throws {
        let path = socket ?? DefaultLocations.socket(system: system)
        let response = try UnixSocketHTTPClient(socketPath: path, timeout: .seconds(10)).request(method: "GET", path: "/v1/status")
        let body = String(decoding: response.body, as: UTF8.self)
        guard response.status == 200 else { throw CommandError("the daemon at \(path) answered \(response.status): \(body)") }
        print(body)
    }
}
