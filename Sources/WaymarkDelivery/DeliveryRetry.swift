import Logging
import WaymarkOutputs

/// One delivery tried until the receiver takes it, says 410, the output's keep time has passed
/// since the first failure, or the task is cancelled; waiting between attempts by `RetryBackoff`.
/// Counts deliveries, failures and latency in the output's activity.
public struct DeliveryRetry: Sendable {
    public enum Result: Equatable {
        case delivered
        case gone(String)
        /// Failing for the keep time; the last failure.
        case gaveUp(String)
        case cancelled
    }

    let output: String
    let keep: Duration
    let activity: OutputActivity
    let logger: Logger
    var backoff = RetryBackoff()

    public init(output: String, keep: Duration, activity: OutputActivity, logger: Logger) {
        self.output = output
        self.keep = keep
        self.activity = activity
        self.logger = logger
    }

    public func run(_ send: () async -> DeliveryOutcome) async -> Result {
        var failures = 0
        var firstFailure: ContinuousClock.Instant?
        while true {
            let started = ContinuousClock.now
            switch await send() {
            case .delivered:
                let latency = ContinuousClock.now - started
                activity.update(output) {
                    $0.delivered += 1
                    $0.lastLatencyMilliseconds = Double(latency.components.attoseconds) / 1e15 + Double(latency.components.seconds) * 1e3
                }
                return .delivered
            case .gone(let reason):
                activity.update(output) { $0.lastError = reason }
                return .gone(reason)
            case .failed(let reason):
                failures += 1
                let since = firstFailure ?? started
                firstFailure = since
                activity.update(output) {
                    $0.failedAttempts += 1
                    $0.lastError = reason
                }
                // Shutting down cut the attempt short: not the receiver's failure, tried again after a restart.
                if Task.isCancelled { return .cancelled }
                if ContinuousClock.now - since >= keep { return .gaveUp(reason) }
                if failures == 1 {
                    logger.warning("Output delivery failed; retrying", metadata: ["output": "\(output)", "error": "\(reason)"])
                }
                let wait = backoff.delay(afterFailures: failures, random: Double.random(in: 0..<1))
                do { try await Task.sleep(for: .milliseconds(Int(wait * 1000))) } catch { return .cancelled }
            }
        }
    }
}
