import WaymarkCore

/// How often a handler may be woken by pushes (`POST /v1/handlers/{name}/notify`): a bucket of
/// `burst` pushes that refills one every `interval` seconds. Phones throttle silent pushes the
/// same way, without saying by how much; Waymark says: 5 at once, then one per 10 s.
public struct PushAllowance: Sendable, Equatable {
    public static let burst = 5.0
    public static let interval = 10.0

    private var tokens = Self.burst
    private var updated: Timestamp?

    public init() {}

    /// Takes one push at `now`: nil when allowed, else the seconds until one would be.
    public mutating func take(at now: Timestamp) -> Double? {
        if let updated { tokens = min(Self.burst, tokens + max(0, now.seconds(since: updated)) / Self.interval) }
        updated = now
        guard tokens >= 1 else { return (1 - tokens) * Self.interval }
        tokens -= 1
        return nil
    }
}
