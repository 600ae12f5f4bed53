/// What an output has done since its runtime started (`/v1/outputs`, `/metrics`): deliveries,
/// failed attempts, dead letters, the last error and the last delivery's latency.
public struct OutputCounts: Codable, Sendable, Equatable {
    public var delivered = 0
    public var failedAttempts = 0
    public var deadLettered = 0
    public var lastError: String?
    public var lastLatencyMilliseconds: Double?

    public init() {}
}
