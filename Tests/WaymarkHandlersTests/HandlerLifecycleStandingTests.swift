import Foundation
import Testing
import WaymarkHandlers

/// Quick and honest handlers are favoured (docs/semantics.md §1.3): periods judged on plain
/// values and millisecond times, and the budget that follows.
@Suite struct HandlerLifecycleStandingTests {
    static func suspension(in timed: [LifecycleDriver.Timed], of name: String = "a") -> Int? {
        timed.first { $0.action == .signal(handler: name, SIGSTOP) }?.ms
    }

    @Test func aPoorStandingShortensTheBudget() {
        var slow = HandlerStanding()
        for _ in 0..<2 { slow.record(HandlerSession(outcome: .slow, seconds: 10)) }
        var driver = LifecycleDriver(
            [LifecycleDriver.registration("a", budget: 10), LifecycleDriver.registration("b", budget: 10)], standing: ["a": slow])
        driver.launchForRegion("a", at: 0)
        driver.launchForRegion("b", at: 0)
        let timed = driver.run(until: 20_000)
        // Two slow periods: 70 % of 10 s.
        #expect(timed.contains(.init(ms: 6_000, action: .send(handler: "a", .willSuspend))))
        #expect(Self.suspension(in: timed, of: "a") == 7_000)
        #expect(Self.suspension(in: timed, of: "b") == 10_000)
    }

    @Test func eventsLeftUnacknowledgedMakeASlowPeriodAndLessTimeNext() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", budget: 10)])
        driver.launchForRegion("a", at: 0)
        driver.at(10, .delivered(handler: "a", sent: [1], through: 1))
        let first = driver.run(until: 15_000)
        #expect(first.contains(.init(ms: 10_000, action: .recordSession(handler: "a", HandlerSession(outcome: .slow, seconds: 10)))))
        driver.at(20_000, .eventsQueued(handler: "a", reason: "region"))
        #expect(Self.suspension(in: driver.run(until: 40_000)) == 28_500)  // 85 % of 10 s
    }

    @Test func acknowledgingEverythingMakesAQuickPeriodTimedToTheLastWork() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", budget: 10)])
        driver.launchForRegion("a", at: 0)
        driver.at(10, .delivered(handler: "a", sent: [1], through: 1))
        driver.at(1_250, .acknowledged(handler: "a", id: 1))
        let timed = driver.run(until: 15_000)
        #expect(timed.contains(.init(ms: 10_000, action: .recordSession(handler: "a", HandlerSession(outcome: .quick, seconds: 1.25)))))
        #expect(driver.handler("a").standing.points == 0)
    }

    @Test func aTruthfulFinishedSuspendsAtOnceAsQuick() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", budget: 10)])
        driver.launchForRegion("a", at: 0)
        driver.at(10, .delivered(handler: "a", sent: [1], through: 1))
        driver.at(600, .acknowledged(handler: "a", id: 1))
        let finished = driver.at(800, .finished(handler: "a", useful: true, through: nil))
        #expect(finished == [
            .recordSession(handler: "a", HandlerSession(outcome: .quick, seconds: 0.8, useful: true)),
            .send(handler: "a", .willSuspend), .signal(handler: "a", SIGSTOP),
            .logState(handler: "a", .suspended, reason: "finished after 0.8 s, useful work"),
        ])
        #expect(driver.lifecycle.nextDeadline == nil)
    }

    @Test func finishedWithAnEventUnacknowledgedIsAMisreportThatCostsTwoPoints() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", budget: 10)])
        driver.launchForRegion("a", at: 0)
        driver.at(10, .delivered(handler: "a", sent: [1, 2], through: 2))
        driver.at(300, .acknowledged(handler: "a", id: 1))
        let finished = driver.at(500, .finished(handler: "a", useful: nil, through: nil))
        #expect(finished == [.send(handler: "a", .error("finished, but 1 event(s) it was sent are unacknowledged: counted as a misreport"))])
        #expect(driver.handler("a").state == .background)  // the period carries on
        let timed = driver.run(until: 15_000)
        #expect(timed.contains(.init(ms: 10_000, action: .recordSession(handler: "a", HandlerSession(outcome: .misreported, seconds: 10)))))
        #expect(abs(driver.handler("a").limits.budget - 7) < 1e-9)  // 70 % of 10 s
    }

    @Test func claimingUsefulWorkWithoutAnyAcknowledgementIsAMisreport() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", budget: 10)])
        driver.launchForRegion("a", at: 0)
        let finished = driver.at(500, .finished(handler: "a", useful: true, through: nil))
        #expect(finished == [.send(handler: "a", .error("finished, but it claims useful work and acknowledged no event: counted as a misreport"))])
    }

    @Test func finishedWhileLaterEventsWereSentKeepsThePeriodGoing() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", budget: 10)])
        driver.launchForRegion("a", at: 0)
        driver.at(10, .delivered(handler: "a", sent: [1, 2], through: 2))
        driver.at(300, .acknowledged(handler: "a", id: 1))
        #expect(driver.at(400, .finished(handler: "a", useful: false, through: 1)).isEmpty)
        #expect(driver.handler("a").state == .background)
    }
}
