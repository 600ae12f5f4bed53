import Foundation
import Testing
import WaymarkCore
@testable import WaymarkHandlers

/// What an active handler takes with it to the background (docs/semantics.md §1.1, §1.2, §1.5):
/// background tasks begun while active stay open, their time limit counted from the move; without
/// background refresh the move brings no budget.
@Suite struct HandlerLifecycleMoveTests {
    static func active(backgroundRefresh: Bool = true) -> LifecycleDriver {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", backgroundRefresh: backgroundRefresh)])
        driver.at(0, .userLaunch(handler: "a"))
        driver.at(10, .spawned(handler: "a"))
        driver.at(20, .connected(handler: "a"))
        return driver
    }

    @Test func aTaskBegunWhileActiveOutlivesTheMoveOnTheCapCountedFromTheMove() {
        var driver = Self.active()
        driver.at(1_000, .beginBackgroundTask(handler: "a", name: "upload"))
        #expect(driver.handler("a").openTasks.map(\.token) == ["a-task-1"])
        driver.at(60_000, .enterBackground(handler: "a", byItself: true))
        #expect(driver.handler("a").openTasks.map(\.token) == ["a-task-1"])
        // The 30 s cap from the move, not from the task: expiration at 85 s, no suspension at 70 s.
        #expect(driver.handler("a").deadline == LifecycleDriver.time(90_000))
        let timeline = driver.run(until: 86_000)
        #expect(!timeline.contains { $0.action == .signal(handler: "a", SIGSTOP) })
        #expect(timeline.contains { $0.ms == 85_000 && $0.action == .send(handler: "a", .expiration(token: "a-task-1", name: "upload", remaining: 5)) })
        // Ending it, with the plain budget long past, suspends it at once.
        let ended = driver.at(87_000, .endBackgroundTask(handler: "a", token: "a-task-1"))
        #expect(ended.first == .send(handler: "a", .backgroundTaskEnded(token: "a-task-1", remaining: 0)))
        #expect(ended.contains(.signal(handler: "a", SIGSTOP)))
        #expect(driver.handler("a").state == .suspended)
    }

    @Test func aTaskStillOpenAtTheCapFromTheMoveIsKilled() {
        var driver = Self.active()
        driver.at(1_000, .beginBackgroundTask(handler: "a", name: "upload"))
        driver.at(60_000, .enterBackground(handler: "a", byItself: false))
        let timeline = driver.run(until: 95_000)
        #expect(timeline.contains { $0.ms == 90_000 && $0.action == .kill(handler: "a", SIGKILL, reason: "background time over with 1 background task(s) still open") })
    }

    @Test func aTaskBegunInTheBackgroundStaysOpenWhenTheUserLaunchesIt() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a")])
        driver.launchForRegion("a", at: 0)
        driver.at(100, .beginBackgroundTask(handler: "a", name: "sync"))
        driver.at(200, .userLaunch(handler: "a"))
        #expect(driver.handler("a").state == .active)
        #expect(driver.at(300, .endBackgroundTask(handler: "a", token: "a-task-1")) == [.send(handler: "a", .backgroundTaskEnded(token: "a-task-1", remaining: nil))])
    }

    @Test func withoutBackgroundRefreshTheMoveSuspendsAtOnce() {
        var driver = Self.active(backgroundRefresh: false)
        let moved = driver.at(60_000, .enterBackground(handler: "a", byItself: false))
        let didEnter = moved.firstIndex(of: .send(handler: "a", .didEnterBackground))
        let willSuspend = moved.firstIndex(of: .send(handler: "a", .willSuspend))
        #expect(didEnter != nil && willSuspend != nil && didEnter! < willSuspend!)
        #expect(moved.contains(.signal(handler: "a", SIGSTOP)))
        #expect(driver.handler("a").state == .suspended)
        // No budget was given, so no period was judged.
        #expect(!moved.contains { if case .recordSession = $0 { true } else { false } })
    }

    @Test func withoutBackgroundRefreshTheMoveKeepsOnlyItsOpenTasksTime() {
        var driver = Self.active(backgroundRefresh: false)
        driver.at(1_000, .beginBackgroundTask(handler: "a", name: "upload"))
        let moved = driver.at(60_000, .enterBackground(handler: "a", byItself: false))
        #expect(!moved.contains(.signal(handler: "a", SIGSTOP)))
        #expect(driver.handler("a").deadline == LifecycleDriver.time(90_000))
        // Its task ends at 62 s: it is suspended then, not at the end of a 10 s budget.
        let ended = driver.at(62_000, .endBackgroundTask(handler: "a", token: "a-task-1"))
        #expect(ended.contains(.signal(handler: "a", SIGSTOP)))
        #expect(driver.handler("a").state == .suspended)
    }

    @Test func withBackgroundRefreshTheMoveStillGetsItsBudget() {
        var driver = Self.active()
        driver.at(60_000, .enterBackground(handler: "a", byItself: false))
        #expect(driver.handler("a").deadline == LifecycleDriver.time(70_000))
    }
}
