import Testing
import WaymarkHandlers

/// The time a handler gets follows how its recent background periods went.
@Suite struct HandlerStandingTests {
    let registered = HandlerLimits(budget: 10, maximumBackgroundTime: 180, memoryBytes: 1 << 30)

    @Test func aCleanRecordGetsTheRegisteredTime() {
        var standing = HandlerStanding()
        #expect(standing.limits(from: registered) == registered)
        for seconds in [0.4, 1.2, 0.8] { standing.record(HandlerSession(outcome: .quick, seconds: seconds, useful: true)) }
        #expect(standing.share == 1)
        #expect(standing.limits(from: registered) == registered)
        #expect(standing.medianQuickSeconds == 0.8)
    }

    @Test func slowPeriodsCostAPointAndMisreportsTwo() {
        var standing = HandlerStanding()
        standing.record(HandlerSession(outcome: .slow, seconds: 10))
        #expect(standing.points == 1)
        #expect(abs(standing.share - 0.85) < 1e-12)
        standing.record(HandlerSession(outcome: .misreported, seconds: 3, useful: true))
        #expect(standing.points == 3)
        let limits = standing.limits(from: registered)
        #expect(abs(limits.budget - 5.5) < 1e-9)
        #expect(abs(limits.maximumBackgroundTime - 99) < 1e-9)
        #expect(limits.memoryBytes == registered.memoryBytes)  // memory is not time
    }

    @Test func theCutStopsAtAQuarter() {
        var standing = HandlerStanding()
        for _ in 0..<HandlerStanding.window { standing.record(HandlerSession(outcome: .misreported, seconds: 10)) }
        #expect(standing.share == 0.25)
        #expect(standing.limits(from: registered).budget == 2.5)
    }

    @Test func quickPeriodsWinBackFullTimeAfterAWindow() {
        var standing = HandlerStanding()
        for _ in 0..<4 { standing.record(HandlerSession(outcome: .slow, seconds: 10)) }
        var shares: [Double] = []
        for _ in 0..<HandlerStanding.window {
            standing.record(HandlerSession(outcome: .quick, seconds: 1))
            shares.append(standing.share)
        }
        #expect(shares == shares.sorted())  // never worse for a quick period
        #expect(shares.dropLast().contains { $0 < 1 })
        #expect(shares.last == 1)
        #expect(standing.sessions.count == HandlerStanding.window)
    }

    @Test func medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        let standing = HandlerStanding(sessions: [1, 4, 2, 3].map { HandlerSession(outcome: .quick, seconds: $0) }
            + [HandlerSession(outcome: .slow, seconds: 100)])
        #expect(standing.medianQuickSeconds == 2.5)
        #expect(HandlerStanding().medianQuickSeconds == nil)
    }
}
