import Testing
import WaymarkCore
import WaymarkServices

/// Issue 48, finding 8: "from the future" as docs/devices.md states it. The receipt time is
/// injected; the gate stays pure.
@Suite struct ValidationGateFutureTests {
    static let year2200 = Timestamp(rfc3339: "2200-01-01T00:00:00Z")!

    @Test func aFixFrom2200IsDroppedAndTheNextRealFixAdmitted() {
        var gate = ValidationGate()
        let now = startTime.adding(seconds: 60)
        #expect(gate.admit(fix(north: 0, at: 0), receivedAt: now) == nil)
        let future = Fix(time: Self.year2200, coordinate: offset(north: 10))
        #expect(gate.admit(future, receivedAt: now) == .fromFuture)
        // Not the previous fix: the next real one is not "time going backwards".
        #expect(gate.admit(fix(north: 20, at: 30), receivedAt: now) == nil)
        #expect(gate.accepted == 2 && gate.dropped == [.fromFuture: 1])
    }

    @Test func theToleranceIsFiveMinutesInclusive() {
        let received = startTime
        var gate = ValidationGate()
        #expect(ValidationGate.futureTolerance == 300)
        #expect(gate.admit(fix(north: 0, at: 300), receivedAt: received) == nil)
        var other = ValidationGate()
        #expect(other.admit(fix(north: 0, at: 300.001), receivedAt: received) == .fromFuture)
    }

    /// A recorded track has no "now": replays and exports pass nil, and 2200 is just a time.
    @Test func withoutAReceiptTimeTheRuleDoesNotApply() {
        var gate = ValidationGate()
        #expect(gate.admit(Fix(time: Self.year2200, coordinate: origin)) == nil)
    }

    /// The rule comes after no fix, bad coordinates and no time, before the time rules.
    @Test func theRuleSitsAfterNoTimeAndBeforeTimeBackwards() {
        var gate = ValidationGate()
        let now = startTime
        #expect(gate.admit(Fix(time: Self.year2200, coordinate: Coordinate(latitude: .nan, longitude: 0)), receivedAt: now) == .invalidCoordinate)
        #expect(gate.admit(fix(north: 0, at: 0), receivedAt: now) == nil)
        #expect(gate.admit(Fix(time: Self.year2200, coordinate: offset(north: 1e6)), receivedAt: now) == .fromFuture)
    }

    @Test func aSubscriptionDropsItToo() {
        var pipeline = SubscriptionPipeline(ServiceSubscription(significantChange: SignificantChangeThresholds()))
        let now = startTime.adding(seconds: 60)
        _ = pipeline.process(fix(north: 0, at: 0), receivedAt: now)
        #expect(pipeline.process(Fix(time: Self.year2200, coordinate: origin), receivedAt: now) == .dropped(.fromFuture))
        if case .dropped(let reason) = pipeline.process(fix(north: 5, at: 10), receivedAt: now) {
            Issue.record("the fix after one from the future was dropped: \(reason)")
        }
    }
}
