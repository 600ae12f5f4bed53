/// Request latency against a running daemon, for the benchmark suite.
public enum APILatency {
    /// The latency of one path: median and 99th percentile (nearest rank).
    public struct Percentiles: Sendable, Equatable {
        public var path: String
        public var p50: Duration
        public var p99: Duration
    }

    /// Sends `count` `GET` requests to each of `paths` one after another, taking the paths in
    /// turn (a new connection each, as the CLI does), so every path is measured over the same
    /// stretch of time — under the same load — and returns each path's percentiles, in order.
    ///
    /// - Throws: the client's error, or `APILatencyError` when a response is not 200.
    public static func measure(client: UnixSocketHTTPClient, paths: [String], count: Int) throws -> [Percentiles] {
        precondition(count > 0, "count must be positive")
        let clock = ContinuousClock()
        var samples = Array(repeating: [Duration](), count: paths.count)
        for index in samples.indices { samples[index].reserveCapacity(count) }
        for _ in 0..<count {
            for (index, path) in paths.enumerated() {
                let start = clock.now
                let response = try client.request(method: "GET", path: path)
                samples[index].append(clock.now - start)
                guard response.status == 200 else { throw APILatencyError(path: path, status: response.status) }
            }
        }
        return zip(paths, samples).map { path, durations in
            let sorted = durations.sorted()
            return Percentiles(path: path, p50: percentile(0.50, of: sorted), p99: percentile(0.99, of: sorted))
        }
    }

    /// Nearest-rank percentile of a sorted, non-empty array.
    static func percentile(_ p: Double, of sorted: [Duration]) -> Duration {
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }
}

/// A measured request did not succeed.
public struct APILatencyError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var status: Int
    public var description: String { "GET \(path) answered \(status), not 200" }
}
