import Testing
import WaymarkCore
import WaymarkPower

/// The sleep rule: (distance to the nearest boundary − uncertainty) ÷ maximum speed.
@Suite struct GNSSScheduleTests {
    let t0 = Timestamp(rfc3339: "2026-06-01T10:00:00Z")!
    let schedule = GNSSSchedule(maximumSpeed: 15, hotStart: 1)

    func fix(accuracy: Double? = nil) -> Fix {
        Fix(time: t0, coordinate: Coordinate(latitude: 47, longitude: 8), horizontalAccuracy: accuracy)
    }

    @Test func sleepsUntilTheEarliestPossibleCrossing() {
        // 1,510 m away, 10 m assumed uncertainty, 15 m/s: no crossing for 100 s.
        #expect(schedule.wake(after: fix(), nearestBoundary: 1510, crossingPending: false) == t0.adding(seconds: 100))
        // A reported accuracy replaces the default.
        #expect(schedule.wake(after: fix(accuracy: 60), nearestBoundary: 1510, crossingPending: false) == t0.adding(seconds: 96.666_666_666_666_67))
    }

    @Test func keepsTrackingNearABoundaryOrWhileACrossingIsPending() {
        // (175 − 10) ÷ 15 = 11 s, less the 1 s hot start, is the 10 s minimum: just worth it.
        #expect(schedule.wake(after: fix(), nearestBoundary: 175, crossingPending: false) != nil)
        #expect(schedule.wake(after: fix(), nearestBoundary: 170, crossingPending: false) == nil)
        #expect(schedule.wake(after: fix(), nearestBoundary: 5000, crossingPending: true) == nil)
        // An untimed fix gives no schedule.
        #expect(schedule.wake(after: Fix(time: nil, coordinate: Coordinate(latitude: 0, longitude: 0)), nearestBoundary: 5000, crossingPending: false) == nil)
    }

    /// Service circles shorten the sleep; the reach (longest sleep × speed) bounds the distance.
    @Test func serviceCirclesAndTheLongestSleepBoundIt() {
        var withServices = schedule
        withServices.serviceRadii = [500, 100]
        #expect(withServices.wake(after: fix(), nearestBoundary: 10_000, crossingPending: false) == nil)
        withServices.serviceRadii = [500]
        #expect(withServices.wake(after: fix(), nearestBoundary: 10_000, crossingPending: false) == t0.adding(seconds: 490.0 / 15))
        #expect(schedule.wake(after: fix(), nearestBoundary: .infinity, crossingPending: false) == t0.adding(seconds: (54_000 - 10) / 15.0))
    }
}
