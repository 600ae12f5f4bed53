import Foundation
import Testing
import WaymarkCore
@testable import WaymarkHandlers

/// Memory pressure (docs/semantics.md §1.4): read from PSI; running handlers warned once per
/// episode; suspended ones purged, largest first, while it stays critical.
@Suite struct HandlerLifecycleMemoryTests {
    @Test func psiIsReadAndGraded() {
        let quiet = MemoryPressure(psi: "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
        #expect(quiet == MemoryPressure(some: 0, full: 0) && quiet?.level == .normal)
        #expect(MemoryPressure(psi: "some avg10=12.50 avg60=1 avg300=0 total=9\n")?.level == .warning)
        #expect(MemoryPressure(psi: "some avg10=41.00 avg60=1 avg300=0 total=9\nfull avg10=0.00 avg60=0 avg300=0 total=0\n")?.level == .critical)
        #expect(MemoryPressure(psi: "some avg10=20.00 avg60=1 avg300=0 total=9\nfull avg10=11.00 avg60=0 avg300=0 total=0\n")?.level == .critical)
        #expect(MemoryPressure(psi: "") == nil)
        #expect(MemoryPressure(psi: "some avg10=lots\n") == nil)
        #expect(MemoryPressure(psi: "some avg10=-3 total=1\n") == nil)
    }

    /// `a` active (user), `b` and `c` launched for events and suspended.
    static func threeHandlers() -> LifecycleDriver {
        var driver = LifecycleDriver([LifecycleDriver.registration("a"), LifecycleDriver.registration("b", budget: 1), LifecycleDriver.registration("c", budget: 1)])
        driver.at(0, .userLaunch(handler: "a"))
        driver.at(10, .spawned(handler: "a"))
        driver.at(20, .connected(handler: "a"))
        driver.launchForRegion("b", at: 100)
        driver.launchForRegion("c", at: 100)
        driver.run(until: 5_000)
        return driver
    }

    @Test func runningHandlersAreWarnedOncePerEpisode() {
        var driver = Self.threeHandlers()
        #expect(driver.handler("b").state == .suspended && driver.handler("c").state == .suspended)
        let warned = driver.at(6_000, .memoryPressure(.warning, suspendedSizes: [:]))
        #expect(warned == [.send(handler: "a", .didReceiveMemoryWarning)], "only the running one; suspended ones cannot read")
        #expect(driver.at(8_000, .memoryPressure(.warning, suspendedSizes: [:])).isEmpty)
        #expect(driver.at(10_000, .memoryPressure(.normal, suspendedSizes: [:])).isEmpty)
        #expect(driver.at(12_000, .memoryPressure(.warning, suspendedSizes: [:])) == [.send(handler: "a", .didReceiveMemoryWarning)])
    }

    @Test func whilePressureStaysCriticalTheLargestSuspendedHandlerGoesFirst() {
        var driver = Self.threeHandlers()
        let sizes = ["b": 300 << 20, "c": 20 << 20]
        let first = driver.at(6_000, .memoryPressure(.critical, suspendedSizes: sizes))
        #expect(!first.contains { if case .kill = $0 { true } else { false } }, "one critical reading is not enough")
        let second = driver.at(8_000, .memoryPressure(.critical, suspendedSizes: sizes))
        #expect(second.contains(.kill(handler: "b", SIGKILL, reason: "purged: memory pressure stays critical (300 MiB resident)")), "\(second)")
        #expect(!second.contains { if case .kill(let name, _, _) = $0 { name != "b" } else { false } })
        driver.at(8_010, .exited(handler: "b", code: nil, signal: SIGKILL))
        let third = driver.at(10_000, .memoryPressure(.critical, suspendedSizes: ["c": 20 << 20]))
        #expect(third.contains { if case .kill("c", SIGKILL, _) = $0 { true } else { false } })
        #expect(driver.handler("a").state == .active, "never a running handler")
    }
}
