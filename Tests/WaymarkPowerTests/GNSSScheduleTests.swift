import Testing
import WaymarkCore
import WaymarkPower

/// The sleep rule: (distance to the nearest boundary − uncertainty) ÷ maximum speed, no later
/// than what the engine has due.
@Suite struct GNSSScheduleTests {
    let t0 = Timestamp(rfc3339: "2026-06-01T10:00:00Z")!
    let schedule = GNSSSchedule(maximumSpeed: 15, hotStart: 1, minimumSleep: 2)

    func fix(accuracy: Double? = nil) -> Fix {
        Fix(time: t0, coordinate: Coordinate(latitude: 47, longitude: 8), horizontalAccuracy: accuracy)
    }

    @Test func sleepsUntilTheEarliestPossibleCrossing() {
        // 1,510 m away, 10 m assumed uncertainty, 15 m/s: no crossing for 100 s.
        #expect(schedule.wake(after: fix(), nearestBoundary: 1510) == t0.adding(seconds: 100))
        // A reported accuracy replaces the default.
        #expect(schedule.wake(after: fix(accuracy: 60), nearestBoundary: 1510) == t0.adding(seconds: 1450.0 / 15))
    }

    @Test func keepsTrackingNearABoundary() {
        // (55 − 10) ÷ 15 = 3 s, less the 1 s hot start, is the 2 s minimum: just worth it.
        #expect(schedule.wake(after: fix(), nearestBoundary: 55) == t0.adding(seconds: 3))
        #expect(schedule.wake(after: fix(), nearestBoundary: 50) == nil)
        // An untimed fix gives no schedule.
        #expect(schedule.wake(after: Fix(time: nil, coordinate: Coordinate(latitude: 0, longitude: 0)), nearestBoundary: 5000) == nil)
    }

    @Test func wakesWhenSomethingIsDue() {
        // A pending crossing confirmable in 30 s: awake by then, though no boundary is near.
        #expect(schedule.wake(after: fix(), nearestBoundary: 5000, due: t0.adding(seconds: 30)) == t0.adding(seconds: 30))
        // Due now (waiting for distance): keep tracking.
        #expect(schedule.wake(after: fix(), nearestBoundary: 5000, due: t0) == nil)
        // The boundary comes first.
        #expect(schedule.wake(after: fix(), nearestBoundary: 160, due: t0.adding(seconds: 30)) == t0.adding(seconds: 10))
    }

    /// Service circles shorten the sleep; the reach (longest sleep × speed) bounds the distance.
    @Test func serviceCirclesAndTheLongestSleepBoundIt() {
        var withServices = schedule
        withServices.serviceRadii = [500, 40]
        #expect(withServices.wake(after: fix(), nearestBoundary: 10_000) == nil)
        withServices.serviceRadii = [500]
        #expect(withServices.wake(after: fix(), nearestBoundary: 10_000) == t0.adding(seconds: 490.0 / 15))
        #expect(schedule.wake(after: fix(), nearestBoundary: .infinity) == t0.adding(seconds: (54_000 - 10) / 15.0))
    }

    /// From a profile: its hot start, and the energy break-even as the shortest sleep.
    @Test func aProfileGivesTheHotStartAndTheBreakEvenSleep() {
        let m8 = GNSSSchedule(profile: .ubloxM8USB, maximumSpeed: 15)
        let acquiring = PowerProfile.ubloxM8USB.states["acquiring"]!.power
        let tracking = PowerProfile.ubloxM8USB.states["tracking"]!.power
        #expect(m8.hotStart == PowerProfile.ubloxM8USB.startTimes["hot"])
        #expect(abs(m8.minimumSleep - m8.hotStart * acquiring / tracking) < 1e-12)
        #expect(m8.minimumSleep > m8.hotStart)
    }
}
