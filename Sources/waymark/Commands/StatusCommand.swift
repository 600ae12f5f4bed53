import ArgumentParser
import Foundation
import WaymarkAPI
import WaymarkDaemon

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Ask the running daemon how it is: source, last fix, counters (JSON).",
        discussion: """
            Talks to `waymark serve` over its API socket (GET /v1/status). Exit status 1 when no daemon answers \
            (within --wait seconds, when given: for scripts that start the daemon and go on once it serves).
            """)

    @Option(help: "The daemon's API socket (default: $XDG_RUNTIME_DIR/waymark/api.sock).")
    var socket: String?

    @Flag(help: "Use the system service's socket (/run/waymark/api.sock).")
    var system = false

    @Option(help: "Wait up to this many seconds for a daemon that is starting to answer.")
    var wait: Double = 0

    func validate() throws {
        guard wait.isFinite && wait >= 0 else { throw ValidationError("--wait must be a number of seconds, 0 or more") }
    }

    func run() throws {
        let path = socket ?? DefaultLocations.socket(system: system)
        let client = UnixSocketHTTPClient(
            socketPath: path, timeout: .seconds(10), peerRule: socket == nil ? .ownUserOrRoot : .ownUserRootOrFolderOwner)
        let deadline = ContinuousClock.now + .seconds(wait)
        var attempt = Result { try client.request(method: "GET", path: "/v1/status") }
        // A command's own thread, not the cooperative pool: sleeping here holds nothing up.
        while case .failure = attempt, ContinuousClock.now < deadline {
            usleep(100_000)
            attempt = Result { try client.request(method: "GET", path: "/v1/status") }
        }
        let response = try attempt.get()
        let body = String(decoding: response.body, as: UTF8.self)
        guard response.status == 200 else { throw CommandError("the daemon at \(path) answered \(response.status): \(body)") }
        print(body)
    }
}
