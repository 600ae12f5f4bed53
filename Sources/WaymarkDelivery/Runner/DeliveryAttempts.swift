import WaymarkOutputs

/// One delivery's decisions (an event's or a position's), as a value: given how an attempt
/// ended, when, and what came before, what happens next (docs/outputs.md, "Delivery"). A
/// delivery is tried until the receiver takes it, says 410 (the output stops), the task is
/// cancelled (shutting down: not the receiver's failure, tried again later) or the output's
/// keep time has passed since its first failure; between failures it waits by `RetryBackoff`.
/// No clock inside: the caller passes the instants, so tests run on instants of their own.
public struct DeliveryAttempts<Instant: InstantProtocol & Sendable>: Sendable where Instant.Duration == Duration {
    public enum Next: Sendable, Equatable {
        /// Taken; `latency` is the successful attempt's.
        case delivered(latency: Duration)
        /// Failed: try again after the wait.
        case retry(after: Duration)
        /// Failing for the keep time (the last failure): a dead letter (an event) or passed over
        /// (a position, which the device's next one replaces).
        case giveUp(String)
        /// The receiver said 410: the output stops and is disabled.
        case disable(String)
        /// Cancelled: stop without a verdict; the delivery is tried again after a restart.
        case stop
    }

    /// How long a delivery may fail, from its first failure, before it is given up.
    public let keep: Duration
    public var backoff: RetryBackoff
    /// Failed attempts so far.
    public private(set) var failures = 0
    /// When the first failed attempt began.
    public private(set) var firstFailure: Instant?

    public init(keep: Duration, backoff: RetryBackoff = RetryBackoff()) {
        self.keep = keep
        self.backoff = backoff
    }

    /// What follows an attempt that began at `started` and ended at `ended` with `outcome`;
    /// `cancelled` says the task was cancelled meanwhile, `random` (0..<1) is the backoff's jitter.
    public mutating func next(
        after outcome: DeliveryOutcome, started: Instant, ended: Instant, cancelled: Bool, random: Double
    ) -> Next {
        switch outcome {
        case .delivered:
            return .delivered(latency: started.duration(to: ended))
        case .gone(let reason):
            return .disable(reason)
        case .failed(let reason):
            failures += 1
            let since = firstFailure ?? started
            firstFailure = since
            if cancelled { return .stop }
            if since.duration(to: ended) >= keep { return .giveUp(reason) }
            let wait = backoff.delay(afterFailures: failures, random: random)
            return .retry(after: .milliseconds(Int(wait * 1000)))
        }
    }
}
