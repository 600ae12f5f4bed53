import Foundation
import Testing
import WaymarkCore
import WaymarkHandlers

/// Which queued kinds wake a handler (docs/semantics.md §1.5, "Wakes by kind"): standard updates
/// — `location`, `paused`, `resumed` — never wake a when-in-use handler; after a force-quit only
/// location events relaunch it.
@Suite struct HandlerLifecycleWakeTests {
    static func spawnReason(_ actions: [HandlerLifecycle.Action]) -> String? {
        for case .spawn(_, let reason) in actions { return reason }
        return nil
    }

    /// A handler launched for a region event and force-quit with `kinds` queued after it.
    static func forceQuit(queued kinds: [String]) -> LifecycleDriver {
        var driver = LifecycleDriver([LifecycleDriver.registration("a")])
        driver.launchForRegion("a", at: 0)
        driver.at(100, .delivered(handler: "a", sent: [1], through: 1))
        driver.at(200, .acknowledged(handler: "a", id: 1))
        driver.at(1_000, .userQuit(handler: "a"))
        driver.queued["a"] = []
        driver.at(1_010, .exited(handler: "a", code: nil, signal: SIGKILL))
        driver.queued["a"] = kinds
        return driver
    }

    @Test(arguments: ["location", "paused", "resumed"])
    func standardUpdatesNeverWakeAWhenInUseHandler(kind: String) {
        var driver = LifecycleDriver([LifecycleDriver.registration("a", authorization: "whenInUse")])
        driver.queued["a"] = [kind]
        #expect(Self.spawnReason(driver.at(0, .eventsQueued(handler: "a", reason: kind))) == nil)
        #expect(driver.lifecycle.withholds("a", EventKind(rawValue: kind)!))
        // A later event that may wake it launches it, named after that event.
        driver.queued["a"] = [kind, "region"]
        #expect(Self.spawnReason(driver.at(100, .eventsQueued(handler: "a", reason: "region"))) == "region")
        // Suspended, it is not resumed for one either.
        driver.at(150, .connected(handler: "a"))
        driver.run(until: 20_000)
        #expect(driver.handler("a").state == .suspended)
        driver.queued["a"] = [kind]
        #expect(!driver.at(21_000, .eventsQueued(handler: "a", reason: kind)).contains(.signal(handler: "a", SIGCONT)))
        // Active (launched by the user), it gets them.
        driver.at(22_000, .userLaunch(handler: "a"))
        #expect(!driver.lifecycle.withholds("a", EventKind(rawValue: kind)!))
    }

    @Test(arguments: ["paused", "resumed"])
    func pausesAndResumptionsLaunchAnAlwaysHandler(kind: String) {
        var driver = LifecycleDriver([LifecycleDriver.registration("a")])
        driver.queued["a"] = [kind]
        #expect(Self.spawnReason(driver.at(0, .eventsQueued(handler: "a", reason: kind))) == kind)
    }

    /// The table of docs/semantics.md §1.5, one row each.
    @Test(arguments: [
        ("region", true), ("beacon", true), ("significantChange", true), ("visit", true), ("location", true),
        ("paused", true), ("resumed", true), ("push", false), ("fetch", false), ("accessory", false), ("ranging", false),
    ])
    func aForceQuitHandlerIsRelaunchedOnlyForLocationEvents(kind: String, relaunches: Bool) {
        var driver = Self.forceQuit(queued: [kind])
        let woken = driver.at(5_000, .eventsQueued(handler: "a", reason: kind))
        #expect(Self.spawnReason(woken) == (relaunches ? kind : nil))
        #expect(HandlerLifecycle.relaunchesAfterForceQuit(EventKind(rawValue: kind)!) == relaunches)
    }

    @Test func aWakeQueuedBeforeTheQuitDoesNotBringItBackButALaterLocationEventDoes() {
        var driver = Self.forceQuit(queued: ["fetch", "accessory"])
        #expect(Self.spawnReason(driver.at(5_000, .eventsQueued(handler: "a", reason: "accessory"))) == nil)
        #expect(driver.handler("a").state == .terminated)
        driver.queued["a"] = ["fetch", "accessory", "visit"]
        #expect(Self.spawnReason(driver.at(6_000, .eventsQueued(handler: "a", reason: "visit"))) == "visit")
    }

    @Test func whileTheMarkStandsAPushDoesNotResumeItEither() {
        var driver = Self.forceQuit(queued: ["region"])
        driver.at(5_000, .eventsQueued(handler: "a", reason: "region"))
        driver.at(5_010, .connected(handler: "a"))
        driver.run(until: 20_000)
        #expect(driver.handler("a").state == .suspended)
        driver.queued["a"] = ["push"]
        #expect(!driver.at(21_000, .eventsQueued(handler: "a", reason: "push")).contains(.signal(handler: "a", SIGCONT)))
        // The user's launch clears the mark: a push wakes it again.
        driver.at(22_000, .userLaunch(handler: "a"))
        #expect(driver.lifecycle.mayWake("a", for: "push"))
    }
}
