import Foundation
import Testing
import WaymarkHandlers

/// Launch and relaunch rules (docs/semantics.md §1.5), on plain values and millisecond times.
@Suite struct HandlerLifecycleLaunchTests {
    @Test(arguments: [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (5, 16.0), (6, 32.0), (7, 60.0), (8, 60.0), (30, 60.0)])
    func crashBackoffDoublesFromOneSecondToAMinute(crashes: Int, seconds: Double) {
        #expect(HandlerLifecycle.backoff(afterCrashes: crashes) == seconds)
    }

    @Test func aCrashingHandlerIsRelaunchedAfterABackoffThatDoublesAndAnAckResets() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a")])
        driver.launchForRegion("a", at: 0)
        let crash = driver.at(500, .exited(handler: "a", code: 1, signal: nil))
        #expect(crash.contains(.logState(handler: "a", .terminated, reason: "crashed (exit 1); next launch in 1.0 s at the earliest")))
        #expect(!crash.contains { if case .spawn = $0 { true } else { false } })
        // An event within the backoff waits; the backoff's end launches it.
        #expect(driver.at(1_000, .eventsQueued(handler: "a", reason: "region")).isEmpty)
        #expect(driver.run(until: 1_499).isEmpty)
        #expect(driver.run(until: 1_500).map(\.action).contains(.spawn(handler: "a", reason: "region")))

        driver.at(1_600, .exited(handler: "a", code: nil, signal: SIGSEGV))
        #expect(driver.lifecycle.nextDeadline == LifecycleDriver.time(3_600))  // 2 s
        driver.run(until: 3_600)
        driver.at(3_700, .exited(handler: "a", code: 2, signal: nil))
        #expect(driver.lifecycle.nextDeadline == LifecycleDriver.time(7_700))  // 4 s
        driver.run(until: 7_700)
        driver.at(7_800, .connected(handler: "a"))
        driver.at(7_850, .delivered(handler: "a", sent: [1], through: 1))
        driver.at(7_900, .acknowledged(handler: "a", id: 1))
        driver.at(8_000, .exited(handler: "a", code: 1, signal: nil))
        #expect(driver.lifecycle.nextDeadline == LifecycleDriver.time(9_000))  // back to 1 s
        #expect(driver.handler("a").counters.crashes == 4)
    }

    @Test func aFailedSpawnIsACrash() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a")])
        driver.failing = ["a"]
        driver.queue["a"] = "region"
        let failed = driver.at(0, .eventsQueued(handler: "a", reason: "region"))
        #expect(failed.contains(.logState(handler: "a", .terminated, reason: "launch failed: no such file")))
        #expect(driver.handler("a").notBefore == LifecycleDriver.time(1_000))
        driver.failing = []
        #expect(driver.run(until: 1_000).map(\.action).contains(.spawn(handler: "a", reason: "region")))
    }

    @Test func aForceQuitHandlerIsRelaunchedForItsNextEvent() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a")])
        driver.launchForRegion("a", at: 0)
        #expect(driver.at(1_000, .userQuit(handler: "a")) == [.kill(handler: "a", SIGKILL, reason: "force-quit by the user")])
        // Its event is still unacknowledged, so the end of the process brings it straight back.
        let exit = driver.at(1_010, .exited(handler: "a", code: nil, signal: SIGKILL))
        #expect(exit.contains(.logState(handler: "a", .terminated, reason: "force-quit by the user (signal 9)")))
        #expect(exit.contains(.spawn(handler: "a", reason: "region")))
        #expect(driver.handler("a").state == .background)
        #expect(driver.handler("a").forceQuit)
    }

    @Test func withTheRelaunchPolicyOffAForceQuitHandlerWaitsForTheUser() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", relaunch: false)])
        driver.launchForRegion("a", at: 0)
        driver.at(1_000, .userQuit(handler: "a"))
        let exit = driver.at(1_010, .exited(handler: "a", code: nil, signal: SIGKILL))
        #expect(exit == [.close(handler: "a"), .logState(handler: "a", .terminated, reason: "force-quit by the user (signal 9)")])
        #expect(driver.at(5_000, .eventsQueued(handler: "a", reason: "region")).isEmpty)
        let launched = driver.at(6_000, .userLaunch(handler: "a"))
        #expect(launched.first == .spawn(handler: "a", reason: "user"))
        #expect(driver.handler("a").state == .active)
        #expect(!driver.handler("a").forceQuit)
        #expect(driver.lifecycle.nextDeadline == nil)  // active: no budget
    }

    @Test func withBackgroundRefreshOffNothingLaunchesOrResumes() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", backgroundRefresh: false)])
        driver.queue["a"] = "region"
        #expect(driver.at(0, .eventsQueued(handler: "a", reason: "region")).isEmpty)
        #expect(driver.handler("a").state == .notRunning)
        // Launched by the user it runs; suspended (by finishing), it is not resumed for events.
        driver.at(100, .userLaunch(handler: "a"))
        #expect(driver.handler("a").state == .active)
        var on = LifecycleDriver([LifecycleDriver.registration("b")])
        on.launchForRegion("b", at: 0)
        on.run(until: 20_000)
        on.at(20_000, .registered([.init(LifecycleDriver.registration("b", backgroundRefresh: false))]))
        #expect(on.at(21_000, .eventsQueued(handler: "b", reason: "region")).isEmpty)
        #expect(on.handler("b").state == .suspended)
    }

    @Test func standardUpdatesLaunchOnlyWithAlwaysAuthorization() {
        var driver = LifecycleDriver([
            LifecycleDriver.registration("always"), LifecycleDriver.registration("inUse", authorization: "whenInUse"),
        ])
        driver.queue = ["always": "location", "inUse": "location"]
        #expect(driver.at(0, .eventsQueued(handler: "always", reason: "location")).contains(.spawn(handler: "always", reason: "location")))
        #expect(!driver.at(0, .eventsQueued(handler: "inUse", reason: "location")).contains { if case .spawn = $0 { true } else { false } })
        #expect(driver.handler("inUse").state == .notRunning)
    }

    @Test func aHandlerStartedByHandIsActiveUntilItDisconnects() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a")])
        let hello = driver.at(0, .connected(handler: "a"))
        #expect(hello.contains(.persistForceQuit(handler: "a", false)))
        #expect(hello.contains(.send(handler: "a", .welcome(launchReason: "user", state: .active, remaining: nil))))
        #expect(hello.last == .deliver(handler: "a", after: 0))
        #expect(driver.at(100, .disconnected(handler: "a")) == [.logState(handler: "a", .notRunning, reason: "disconnected")])
    }

    @Test func anUnregisteredHandlerIsKilledAndForgotten() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a"), LifecycleDriver.registration("b")])
        driver.launchForRegion("a", at: 0)
        let reload = driver.at(100, .registered([.init(LifecycleDriver.registration("b"))]))
        #expect(reload.starts(with: [.kill(handler: "a", SIGKILL, reason: "unregistered"), .forget(handler: "a")]))
        #expect(driver.lifecycle.handlers["a"] == nil)
    }

    @Test func shutdownStopsRunningHandlersAndLaunchesNothingMore() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", budget: 1)])
        driver.launchForRegion("a", at: 0)
        driver.run(until: 2_000)
        // Suspended: no willTerminate (it could not read it), then SIGCONT and SIGTERM.
        #expect(driver.at(3_000, .shutdown).isEmpty)
        let terminate = driver.at(3_500, .terminate)
        #expect(terminate == [.signal(handler: "a", SIGCONT), .kill(handler: "a", SIGTERM, reason: "daemon shutdown"), .close(handler: "a")])
        driver.at(3_100, .exited(handler: "a", code: 0, signal: nil))
        #expect(driver.at(3_200, .eventsQueued(handler: "a", reason: "region")).isEmpty)
    }
}
