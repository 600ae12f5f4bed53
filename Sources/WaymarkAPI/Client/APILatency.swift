/// Request latency against a running daemon, for the benchmark suite.
public enum APILatency {
    /// Sends `count` `GET path` requests one after another (a new connection each, as the CLI
    /// does) and returns the median and 99th-percentile wall-clock latency (nearest rank).
    ///
    /// - Throws: the client's error, or `APILatencyError` when a response is not 200.
    public static func measure(client: UnixSocketHTTPClient, path: String, count: Int) throws -> (p50: Duration, p99: Duration) {
        precondition(count > 0, "count must be positive")
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let start = clock.now
            let response = try client.request(method: "GET", path: path)
            samples.append(clock.now - start)
            guard response.status == 200 else { throw APILatencyError(path: path, status: response.status) }
        }
        samples.sort()
        func percentile(_ p: Double) -> Duration {
            let rank = Int((p * Double(samples.count)).rounded(.up))
            return samples[max(0, min(samples.count - 1, rank - 1))]
        }
        return (percentile(0.50), percentile(0.99))
    }
}

/// A measured request did not succeed.
public struct APILatencyError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var status: Int
    public var description: String { "GET \(path) answered \(status), not 200" }
}
