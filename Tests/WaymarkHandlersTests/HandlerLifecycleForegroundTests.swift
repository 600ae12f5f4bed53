import Foundation
import Testing
import WaymarkCore
@testable import WaymarkHandlers

/// Foreground and background (docs/semantics.md §1.1): an active handler moved to the
/// background — by the user or by itself — gets `didEnterBackground` and its budget from then;
/// at shutdown running handlers hear `willTerminate` before SIGTERM.
@Suite struct HandlerLifecycleForegroundTests {
    /// A handler launched by the user and connected: active, no deadline.
    static func active() -> LifecycleDriver {
        var driver = LifecycleDriver([LifecycleDriver.registration("a")])
        driver.at(0, .userLaunch(handler: "a"))
        driver.at(10, .spawned(handler: "a"))
        driver.at(20, .connected(handler: "a"))
        return driver
    }

    @Test(arguments: [false, true]) func anActiveHandlerMovedToTheBackgroundGetsItsBudgetFromThen(byItself: Bool) {
        var driver = Self.active()
        #expect(driver.handler("a").state == .active)
        #expect(driver.lifecycle.nextDeadline == nil)
        #expect(driver.at(5_000, .backgroundTimeRemaining(handler: "a")).contains(.send(handler: "a", .backgroundTimeRemaining(nil))))
        let moved = driver.at(60_000, .enterBackground(handler: "a", byItself: byItself))
        #expect(moved.contains(.send(handler: "a", .didEnterBackground)))
        #expect(moved.contains(.logState(handler: "a", .background, reason: byItself ? "moved to the background by itself" : "moved to the background by the user")))
        #expect(driver.handler("a").state == .background)
        #expect(driver.at(61_000, .backgroundTimeRemaining(handler: "a")).contains(.send(handler: "a", .backgroundTimeRemaining(9))))
        // The default 10 s budget runs from the move: willSuspend at 69 s, SIGSTOP at 70 s.
        let timeline = driver.run(until: 75_000)
        #expect(timeline.contains { $0.ms == 69_000 && $0.action == .send(handler: "a", .willSuspend) })
        #expect(timeline.contains { $0.ms == 70_000 && $0.action == .signal(handler: "a", SIGSTOP) })
        #expect(driver.handler("a").state == .suspended)
    }

    @Test func onlyAnActiveHandlerMoves() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a")])
        #expect(driver.at(0, .enterBackground(handler: "a", byItself: false)).isEmpty, "not running")
        driver.launchForRegion("a", at: 100)
        #expect(driver.at(200, .enterBackground(handler: "a", byItself: true)).isEmpty, "already in the background")
    }

    @Test func runningHandlersHearWillTerminateBeforeSIGTERM() {
        var driver = Self.active()
        #expect(driver.at(1_000, .shutdown) == [.send(handler: "a", .willTerminate)])
        let terminate = driver.at(1_500, .terminate)
        #expect(terminate.contains(.kill(handler: "a", SIGTERM, reason: "daemon shutdown")), "\(terminate)")
        #expect(!terminate.contains(.send(handler: "a", .willTerminate)))
    }
}
