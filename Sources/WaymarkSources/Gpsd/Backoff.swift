/// How long to wait before each reconnection attempt: `initial`, multiplied by `multiplier`
/// after every failed attempt, never more than `maximum`.
public struct Backoff: Sendable, Equatable {
    /// The wait before the first attempt after a loss.
    public var initial: Duration
    /// The factor between consecutive waits (2 doubles them).
    public var multiplier: Double
    /// The longest wait; it bounds how late a restarted gpsd is noticed.
    public var maximum: Duration

    public init(initial: Duration, multiplier: Double, maximum: Duration) {
        self.initial = initial
        self.multiplier = max(1, multiplier)
        self.maximum = max(initial, maximum)
    }

    /// 0.1 s doubling to a 1 s cap: a gpsd that comes back is found within about 1 s, so
    /// fixes resume within the 2 s the daemon promises, at one connection attempt a second
    /// while gpsd stays away.
    public static let `default` = Backoff(initial: .milliseconds(100), multiplier: 2, maximum: .seconds(1))

    /// The wait before attempt `attempt` (0 for the first attempt after a loss).
    public func delay(attempt: Int) -> Duration {
        let initialSeconds = initial.inSeconds
        let maximumSeconds = maximum.inSeconds
        var seconds = initialSeconds
        for _ in 0..<max(0, attempt) {
            seconds *= multiplier
            if seconds >= maximumSeconds { return maximum }
        }
        return .nanoseconds(Int64((min(seconds, maximumSeconds) * 1e9).rounded()))
    }
}
