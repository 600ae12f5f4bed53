import ArgumentParser
import WaymarkAPI
import WaymarkCore

extension BenchCommand {
    struct API: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "api",
            abstract: "Latency of a running daemon's API over its Unix socket (p50/p99).",
            discussion: """
                Sends --count sequential GET requests (a new connection each, as the CLI does) to \
                each path, taking the paths in turn so each is measured under the same load, and \
                prints one JSON object per path with p50 and p99 in milliseconds.
                """)

        @Option(help: "The daemon's API socket.")
        var socket: String

        @Option(name: .customLong("path"), help: "Paths to request (default: /v1/status and /v1/fixes/last).")
        var paths: [String] = ["/v1/status", "/v1/fixes/last"]

        @Option(help: "Requests per path.")
        var count = 2000

        func run() throws {
            let client = UnixSocketHTTPClient(socketPath: socket)
            for latency in try APILatency.measure(client: client, paths: paths, count: count) {
                var json = JSONObjectWriter()
                json.add("benchmark", "api")
                json.add("path", latency.path)
                json.add("requests", count)
                json.add("p50_ms", Self.milliseconds(latency.p50))
                json.add("p99_ms", Self.milliseconds(latency.p99))
                print(json.object)
            }
        }

        static func milliseconds(_ duration: Duration) -> Double {
            let ms = duration.inSeconds * 1000
            return (ms * 1000).rounded() / 1000
        }
    }
}
