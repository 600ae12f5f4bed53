import Foundation
import Testing
import WaymarkHandlers

/// Budgets, notices and the end of background time (docs/semantics.md §1.2, §1.4), on plain
/// values and millisecond times.
@Suite struct HandlerLifecycleBudgetTests {
    @Test func aBudgetBringsWillSuspendOneSecondBeforeItsEndThenSIGSTOP() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", budget: 10)])
        // Nothing that wakes it in the queue (the shell's answer): no launch.
        #expect(driver.at(250, .eventsQueued(handler: "a", reason: "region")) == [.readQueue(handler: "a")])
        driver.queue["a"] = "region"
        #expect(driver.at(250, .eventsQueued(handler: "a", reason: "region")).contains(.spawn(handler: "a", reason: "region")))
        #expect(driver.handler("a").state == .background)
        driver.at(400, .connected(handler: "a"))
        #expect(driver.lifecycle.nextDeadline == LifecycleDriver.time(9_250))

        let timed = driver.run(until: 60_000)
        #expect(timed.filter { if case .send = $0.action { true } else { false } } == [.init(ms: 9_250, action: .send(handler: "a", .willSuspend))])
        #expect(timed.contains(.init(ms: 10_250, action: .signal(handler: "a", SIGSTOP))))
        #expect(timed.contains(.init(ms: 10_250, action: .logState(handler: "a", .suspended, reason: "budget spent"))))
        #expect(driver.handler("a").state == .suspended)
        // Suspended with nothing due: no wake-up at all until the next input.
        #expect(driver.lifecycle.nextDeadline == nil)
    }

    /// A launched process that never says `hello` is not suspended (to be resumed for the next
    /// event, and again, forever): at the end of its background time it is ended, and that
    /// counts as a crash, so the next launch waits out a backoff.
    @Test func aLaunchThatNeverConnectsFailsAtTheEndOfItsBackgroundTime() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", budget: 2)])
        driver.queue["a"] = "region"
        driver.at(0, .eventsQueued(handler: "a", reason: "region"))
        let timed = driver.run(until: 2_500)
        #expect(timed.contains(.init(ms: 2_000, action: .kill(handler: "a", SIGKILL, reason: "never connected (no hello) in its background time"))))
        #expect(!timed.contains { $0.action == .signal(handler: "a", SIGSTOP) })
        let exit = driver.at(2_050, .exited(handler: "a", code: nil, signal: SIGKILL))
        #expect(exit.contains(.logState(
            handler: "a", .terminated,
            reason: "never connected (no hello) in its background time (signal 9); next launch in 1.0 s at the earliest")), "\(exit)")
        #expect(driver.handler("a").counters.crashes == 1 && driver.handler("a").state == .terminated)
        // The next launch, after the backoff, that connects is suspended as usual.
        driver.at(3_100, .eventsQueued(handler: "a", reason: "region"))
        driver.at(3_300, .connected(handler: "a"))
        #expect(driver.run(until: 6_000).contains(.init(ms: 5_100, action: .signal(handler: "a", SIGSTOP))))
    }

    @Test func aNewEventResumesASuspendedHandlerOnAFreshBudget() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", budget: 2)])
        driver.launchForRegion("a", at: 0)
        driver.run(until: 5_000)
        let resumed = driver.at(7_000, .eventsQueued(handler: "a", reason: "region"))
        #expect(resumed.starts(with: [.readQueue(handler: "a"), .signal(handler: "a", SIGCONT)]))
        #expect(resumed.contains(.send(handler: "a", .didResume)))
        #expect(resumed.contains(.deliver(handler: "a", after: 0)))
        #expect(driver.handler("a").state == .background)
        #expect(driver.lifecycle.nextDeadline == LifecycleDriver.time(8_000))
        #expect(driver.run(until: 9_000).contains(.init(ms: 9_000, action: .signal(handler: "a", SIGSTOP))))
    }

    @Test func anOpenTaskGetsItsExpirationNoticeFiveSecondsBeforeTheCapThenSIGKILL() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", budget: 10, maximumBackgroundTime: 30)])
        driver.launchForRegion("a", at: 0)
        let begun = driver.at(1_500, .beginBackgroundTask(handler: "a", name: "upload"))
        #expect(begun == [.send(handler: "a", .backgroundTask(token: "a-task-1", name: "upload", remaining: 28.5))])
        #expect(driver.lifecycle.nextDeadline == LifecycleDriver.time(25_000))  // no willSuspend at 9 s

        let timed = driver.run(until: 40_000)
        #expect(timed.first == .init(ms: 25_000, action: .send(handler: "a", .expiration(token: "a-task-1", name: "upload", remaining: 5))))
        #expect(timed.contains(.init(ms: 30_000, action: .kill(handler: "a", SIGKILL, reason: "background time over with 1 background task(s) still open"))))
        #expect(!timed.contains { $0.action == .send(handler: "a", .willSuspend) })
        #expect(timed.contains(.init(ms: 30_000, action: .recordSession(handler: "a", HandlerSession(outcome: .slow, seconds: 30)))))

        let exit = driver.at(30_020, .exited(handler: "a", code: nil, signal: SIGKILL))
        #expect(exit.contains(.logState(handler: "a", .terminated, reason: "background time over with 1 background task(s) still open (signal 9)")))
        #expect(driver.handler("a").counters.terminations == 1)
    }

    @Test func theLastTaskEndingAfterTheBudgetSuspendsAtOnce() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", budget: 10, maximumBackgroundTime: 30)])
        driver.launchForRegion("a", at: 0)
        driver.at(1_000, .beginBackgroundTask(handler: "a", name: "upload"))
        driver.run(until: 12_000)
        let ended = driver.at(12_000, .endBackgroundTask(handler: "a", token: "a-task-1"))
        #expect(ended.contains(.send(handler: "a", .willSuspend)))
        #expect(ended.contains(.signal(handler: "a", SIGSTOP)))
        #expect(driver.handler("a").state == .suspended)
    }

    @Test func exitsOnSuspendGetsSIGTERMThenSIGKILLAfterTheGrace() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", budget: 2, exitsOnSuspend: true)])
        driver.launchForRegion("a", at: 0)
        let timed = driver.run(until: 10_000)
        #expect(timed.map(\.action).contains(.kill(handler: "a", SIGTERM, reason: "budget spent (exits on suspend)")))
        #expect(timed.contains(.init(ms: 2_000, action: .signal(handler: "a", SIGCONT))))
        #expect(!timed.contains { $0.action == .signal(handler: "a", SIGSTOP) })
        #expect(timed.last == .init(ms: 5_000, action: .kill(handler: "a", SIGKILL, reason: "still running 3.0 s after SIGTERM")))
        #expect(driver.lifecycle.nextDeadline == nil)
    }

    @Test func anExitWithinTheGraceGetsNoSIGKILL() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", budget: 2, exitsOnSuspend: true)])
        driver.launchForRegion("a", at: 0)
        driver.run(until: 2_000)
        #expect(driver.lifecycle.nextDeadline == LifecycleDriver.time(5_000))
        driver.queue["a"] = nil  // its event was acknowledged
        let exit = driver.at(2_300, .exited(handler: "a", code: 0, signal: nil))
        #expect(exit.contains(.logState(handler: "a", .terminated, reason: "budget spent (exits on suspend) (exit 0)")))
        #expect(driver.run(until: 10_000).isEmpty)
    }

    @Test func theOldestSuspendedHandlersBeyondTheLimitArePurged() {
        var settings = HandlerLifecycle.Settings()
        settings.maximumSuspended = 2
        var driver = LifecycleDriver(["a", "b", "c"].map { LifecycleDriver.registration($0, budget: 1) }, settings: settings)
        driver.launchForRegion("b", at: 0)
        driver.launchForRegion("a", at: 100)
        driver.run(until: 1_500)
        #expect(driver.handler("a").state == .suspended && driver.handler("b").state == .suspended)
        driver.launchForRegion("c", at: 2_000)
        let timed = driver.run(until: 3_500)
        let kills = timed.filter { if case .kill = $0.action { true } else { false } }
        // c's suspension at 3 s makes three: b, suspended first, goes, without notice.
        #expect(kills == [.init(ms: 3_000, action: .kill(handler: "b", SIGKILL, reason: "purged: more than 2 suspended handlers"))])
        #expect(!timed.contains { $0.action == .send(handler: "b", .willSuspend) })
    }
}
