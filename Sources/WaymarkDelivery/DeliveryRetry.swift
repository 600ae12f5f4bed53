import Logging
import WaymarkOutputs

/// One delivery tried as `DeliveryAttempts` decides: until the receiver takes it, says 410,
/// the output's keep time has passed since the first failure, or the task is cancelled; waiting
/// between attempts. Counts deliveries, failures and latency in the output's activity.
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
        var attempts = DeliveryAttempts<ContinuousClock.Instant>(keep: keep, backoff: backoff)
        while true {
            let started = ContinuousClock.now
            let outcome = await send()
            let next = attempts.next(after: outcome, started: started, ended: .now, cancelled: Task.isCancelled, random: .random(in: 0..<1))
            switch outcome {
            case .delivered: break
            case .gone(let reason):
                activity.update(output) { $0.lastError = reason }
            case .failed(let reason):
                activity.update(output) {
                    $0.failedAttempts += 1
                    $0.lastError = reason
                }
            }
            switch next {
            case .delivered(let latency):
                activity.update(output) {
                    $0.delivered += 1
                    $0.lastLatencyMilliseconds = Double(latency.components.attoseconds) / 1e15 + Double(latency.components.seconds) * 1e3
                }
                return .delivered
            case .disable(let reason): return .gone(reason)
            case .giveUp(let reason): return .gaveUp(reason)
            case .stop: return .cancelled
            case .retry(let wait):
                if attempts.failures == 1, case .failed(let reason) = outcome {
                    logger.warning("Output delivery failed; retrying", metadata: ["output": "\(output)", "error": "\(reason)"])
                }
                do { try await Task.sleep(for: wait) } catch { return .cancelled }
            }
        }
    }
}
