import Testing
import WaymarkCore
import WaymarkPower
import WaymarkRegions
import WaymarkServices

/// The schedule as replay and the daemon build and ask it: from the subscriptions, and after a
/// fix the region engine has processed.
@Suite struct GNSSScheduleEngineTests {
    let t0 = Timestamp(rfc3339: "2026-06-01T10:00:00Z")!
    static let centre = Coordinate(latitude: 47, longitude: 8)

    /// A fix `metres` north of the centre, 10 m accuracy, `seconds` after t0.
    func fix(metres: Double, at seconds: Double) -> Fix {
        Fix(
            time: t0.adding(seconds: seconds),
            coordinate: Coordinate(latitude: Self.centre.latitude + metres / 111_195, longitude: Self.centre.longitude),
            horizontalAccuracy: 10)
    }

    @Test func theSubscriptionsGiveTheSpeedAndTheCircles() {
        let services = [
            ServiceSubscription(significantChange: SignificantChangeThresholds()),
            ServiceSubscription(visits: VisitThresholds(), activity: .automotive),
        ]
        let schedule = GNSSSchedule(activity: .fitness, subscriptions: services, profile: .ubloxM8USB)
        #expect(schedule.maximumSpeed == 15)
        #expect(schedule.hotStart == 1)
        #expect(schedule.serviceRadii == [500, 100])
    }

    @Test func theEngineGivesTheBoundaryAndWhatIsDue() {
        var monitor = RegionMonitor(regions: [Region(identifier: "hut", shape: .circle(center: Self.centre, radius: 100))])
        let schedule = GNSSSchedule(activity: .fitness, subscriptions: [], profile: .ubloxM8USB)
        // 1100 m out: 1000 m to the boundary, (1000 − 10) ÷ 15 = 66 s.
        let far = fix(metres: 1100, at: 0)
        _ = monitor.process(far)
        let wake = schedule.wake(after: far, monitor: monitor)
        #expect(abs((wake?.seconds(since: t0) ?? 0) - 66) < 0.5)
        // Inside now, not yet confirmed: awake again before the device could be back at the
        // boundary, (100 − 10) ÷ 15 = 6 s, which is before the confirmation is due at 90 s.
        let inside = fix(metres: 0, at: 70)
        _ = monitor.process(inside)
        #expect(monitor.raw != monitor.inside)
        #expect(monitor.nextDue(after: inside.time!) == t0.adding(seconds: 90))
        #expect(schedule.wake(after: inside, monitor: monitor) == t0.adding(seconds: 76))
        // No regions and no services: the reach (an hour at full speed), less the uncertainty.
        let empty = RegionMonitor(regions: [])
        let longest = schedule.wake(after: far, monitor: empty)?.seconds(since: t0) ?? 0
        #expect(abs(longest - (3600 - 10.0 / 15)) < 1e-6)
    }
}
