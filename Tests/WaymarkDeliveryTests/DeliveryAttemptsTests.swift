import Testing
import WaymarkDelivery
import WaymarkOutputs

/// One delivery's decisions on made-up instants: taken, 410, retried with backoff, given up
/// after the keep time, stopped when cancelled.
@Suite struct DeliveryAttemptsTests {
    typealias Attempts = DeliveryAttempts<TestInstant>

    @Test func aTakenDeliveryReportsItsAttemptsLatency() {
        var attempts = Attempts(keep: .seconds(60))
        let next = attempts.next(after: .delivered, started: .seconds(10), ended: .seconds(10.25), cancelled: false, random: 0.5)
        #expect(next == .delivered(latency: .milliseconds(250)))
        #expect(attempts.failures == 0)
    }

    @Test func goneDisablesTheOutputAtOnce() {
        var attempts = Attempts(keep: .seconds(60))
        let next = attempts.next(after: .gone("410"), started: .seconds(0), ended: .seconds(1), cancelled: false, random: 0)
        #expect(next == .disable("410"))
    }

    /// With no jitter (`random` 0) the waits are half the ceiling: 0.5 s, 1 s, 2 s, 4 s …
    @Test func failuresAreRetriedAfterAGrowingWait() {
        var attempts = Attempts(keep: .seconds(3600))
        var waits: [Duration] = []
        var now = TestInstant.seconds(0)
        for _ in 0..<4 {
            let next = attempts.next(after: .failed("refused"), started: now, ended: now + .milliseconds(10), cancelled: false, random: 0)
            guard case .retry(let wait) = next else {
                Issue.record("expected a retry, got \(next)")
                return
            }
            waits.append(wait)
            now = now + .milliseconds(10) + wait
        }
        #expect(waits == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4)])
        #expect(attempts.failures == 4)
        #expect(attempts.firstFailure == .seconds(0))
    }

    /// The keep time counts from the start of the first failed attempt to the end of the latest.
    @Test(arguments: [(59.999, false), (60.0, true), (75.0, true)])
    func aDeliveryFailingForTheKeepTimeIsGivenUp(ended: Double, givenUp: Bool) {
        var attempts = Attempts(keep: .seconds(60))
        _ = attempts.next(after: .failed("first"), started: .seconds(100), ended: .seconds(101), cancelled: false, random: 0)
        let next = attempts.next(
            after: .failed("last"), started: .seconds(100 + ended - 1), ended: .seconds(100 + ended), cancelled: false, random: 0)
        if givenUp {
            #expect(next == .giveUp("last"))
        } else {
            guard case .retry = next else {
                Issue.record("expected a retry, got \(next)")
                return
            }
        }
    }

    @Test func aCancelledFailureStopsWithoutAVerdictEvenPastTheKeepTime() {
        var attempts = Attempts(keep: .seconds(1))
        let next = attempts.next(after: .failed("cut short"), started: .seconds(0), ended: .seconds(5), cancelled: true, random: 0)
        #expect(next == .stop)
        #expect(attempts.failures == 1)
    }

    @Test func theJitterStaysWithinTheCeiling() {
        var attempts = Attempts(keep: .seconds(3600), backoff: RetryBackoff(base: 2, cap: 300))
        let next = attempts.next(after: .failed("x"), started: .seconds(0), ended: .seconds(0), cancelled: false, random: 0.999)
        guard case .retry(let wait) = next else {
            Issue.record("expected a retry, got \(next)")
            return
        }
        #expect(wait > .seconds(1.99) && wait < .seconds(2))
    }
}
