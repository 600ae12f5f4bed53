import Testing
import WaymarkCore
import WaymarkPower
import WaymarkServices

/// The learned approach bound (issue 43): a device starts from its recent speed with a margin
/// and speeds up at a bounded rate to the activity's maximum, instead of being at the maximum at
/// once — what kept the receiver on for a cyclist replayed with an unknown activity's 60 m/s.
@Suite struct GNSSScheduleMotionTests {
    let t0 = Timestamp(rfc3339: "2026-06-01T10:00:00Z")!
    let origin = Coordinate(latitude: 47, longitude: 8)

    /// A fix `metres` north of the origin at `seconds` after t0, with optional noise east.
    func fix(_ seconds: Double, north metres: Double, east: Double = 0, speed: Double? = nil) -> Fix {
        let north = Geodesic.destination(from: origin, azimuth: 0, distance: metres)
        let position = east == 0 ? north : Geodesic.destination(from: north, azimuth: 90, distance: east)
        return Fix(time: t0.adding(seconds: seconds), coordinate: position, speed: speed)
    }

    @Test func withoutAStartSpeedTheBoundIsTheMaximumAsBefore() {
        let plain = ApproachBound(maximumSpeed: 15, defaultUncertainty: 10)
        #expect(plain.seconds(toReach: 1510, uncertainty: nil) == 100)
        #expect(plain.seconds(toReach: 1510, uncertainty: 60) == 1450.0 / 15)
        #expect(plain.seconds(toReach: 5, uncertainty: nil) < 0)
        // A negative stated accuracy is none stated: the default, not zero.
        #expect(plain.uncertainty(-1) == 10)
        #expect(plain.uncertainty(0) == 0)
    }

    @Test func fromTheStartSpeedTheDeviceSpeedsUpToTheMaximum() {
        let bound = ApproachBound(maximumSpeed: 15, defaultUncertainty: 10, startSpeed: 5, acceleration: 2)
        // Within the rise: 5 t + t² = 24 → t = 3.
        #expect(abs(bound.seconds(toCover: 24) - 3) < 1e-9)
        // The rise lasts 5 s and covers 50 m; then 15 m/s: 150 m more take 10 s.
        #expect(abs(bound.seconds(toCover: 200) - 15) < 1e-9)
        // Never later than a device at the start speed all along, never earlier than at the maximum.
        for metres in stride(from: 1.0, through: 5000, by: 37) {
            let seconds = bound.seconds(toCover: metres)
            #expect(seconds <= metres / 5 + 1e-9)
            #expect(seconds >= metres / 15 - 1e-9)
        }
        // A start speed above the maximum is the maximum.
        let fast = ApproachBound(maximumSpeed: 15, startSpeed: 40, acceleration: 2)
        #expect(fast.seconds(toCover: 150) == 10)
    }

    @Test func recentMotionLearnsTheFastestRecentSpeedOverTheBaseline() {
        var motion = RecentMotion()
        #expect(motion.learnedSpeed == nil)
        // 6 m/s north, a fix a second, from the sixth on wandering 3 m east or west: measured over
        // 5 s, not fix to fix (8.5 m/s), that is under 6.5 m/s.
        for second in 0...30 {
            motion.take(fix(Double(second), north: 6 * Double(second), east: second < 5 ? 0 : second % 2 == 0 ? 3 : -3))
        }
        let learned = try! #require(motion.learnedSpeed)
        #expect(learned > 5.9 && learned < 6.5)
        let bound = motion.approachBound(maximumSpeed: 60, acceleration: 2, defaultUncertainty: 10, at: t0.adding(seconds: 30))
        #expect(bound.startSpeed == learned * 1.5 + 2)
        #expect(bound.acceleration == 2)
        // A receiver's own speed counts when it is faster.
        motion.take(fix(31, north: 186, speed: 20))
        #expect(motion.learnedSpeed == 20)
    }

    @Test func oldOrMissingMotionGivesThePlainMaximum() {
        var motion = RecentMotion()
        motion.take(fix(0, north: 0))
        // One fix: no speed yet.
        #expect(motion.approachBound(maximumSpeed: 15, acceleration: 1, defaultUncertainty: 10, at: t0).startSpeed == nil)
        motion.take(fix(10, north: 10))
        #expect(motion.approachBound(maximumSpeed: 15, acceleration: 1, defaultUncertainty: 10, at: t0.adding(seconds: 10)).startSpeed != nil)
        // Asked long after the last fix: nothing is known of now.
        #expect(motion.approachBound(maximumSpeed: 15, acceleration: 1, defaultUncertainty: 10, at: t0.adding(seconds: 500)).startSpeed == nil)
        // A gap longer than the window forgets what came before it.
        motion.take(fix(400, north: 20))
        #expect(motion.learnedSpeed == nil)
        // Untimed and older fixes are ignored.
        motion.take(Fix(time: nil, coordinate: origin))
        motion.take(fix(300, north: 5000))
        #expect(motion.learnedSpeed == nil)
    }

    /// The schedule with motion: a cyclist's 6 m/s sleeps longer than the unknown activity's
    /// 60 m/s allows; without motion it is the old rule. Walkers and cyclists gain speed at
    /// 1 m/s², anything that may be a vehicle at 2.
    @Test func theScheduleSleepsLongerForASlowDeviceAndAsBeforeWithoutMotion() {
        let schedule = GNSSSchedule(maximumSpeed: 60, hotStart: 1, minimumSleep: 1.14)
        var motion = RecentMotion()
        for second in 0...20 { motion.take(fix(Double(second), north: 6 * Double(second))) }
        let now = fix(20, north: 120)
        let plain = try! #require(schedule.wake(after: now, nearestBoundary: 500))
        let learned = try! #require(schedule.wake(after: now, nearestBoundary: 500, motion: motion))
        #expect(plain == now.time!.adding(seconds: 490.0 / 60))
        #expect(learned.seconds(since: now.time!) > 2 * plain.seconds(since: now.time!))
        // 490 m from 11 m/s at 2 m/s²: 11 t + t² = 490 → t ≈ 17.31 s.
        #expect(abs(learned.seconds(since: now.time!) - 17.31) < 0.01)
        // Near the boundary the learned bound sleeps where the plain one keeps tracking.
        #expect(schedule.wake(after: now, nearestBoundary: 60) == nil)
        #expect(schedule.wake(after: now, nearestBoundary: 60, motion: motion) != nil)
        #expect(GNSSSchedule(activity: .fitness, subscriptions: [], profile: .ubloxM8USB).acceleration == 1)
        #expect(GNSSSchedule(activity: .other, subscriptions: [], profile: .ubloxM8USB).acceleration == 2)
        #expect(GNSSSchedule(activity: .automotive, subscriptions: [], profile: .ubloxM8USB).acceleration == 2)
    }
}
