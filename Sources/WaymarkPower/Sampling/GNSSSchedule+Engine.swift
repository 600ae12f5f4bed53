import WaymarkCore
import WaymarkRegions
import WaymarkServices

/// The schedule as replay and the daemon both use it: built from what is subscribed, and asked
/// after each fix the region engine has seen.
extension GNSSSchedule {
    /// The schedule for `subscriptions` at `activity`'s speed bound and acceleration, with `profile`'s hot start
    /// and break-even sleep: significant change adds a circle of its distance (a fix at least as often as the device
    /// could leave it), visits and the timeline a circle of their radius.
    public init(activity: ActivityType, subscriptions: [ServiceSubscription], profile: PowerProfile) {
        var radii: [Double] = []
        for services in subscriptions {
            if let significant = services.significantChange { radii.append(significant.minimumDistance) }
            if let visits = services.visits { radii.append(visits.radius) }
            if let timeline = services.timeline { radii.append(timeline.radius) }
        }
        self.init(
            profile: profile, maximumSpeed: activity.maximumSpeed, serviceRadii: radii,
            acceleration: Self.acceleration(for: activity))
    }

    /// How fast a device of `activity` may gain speed while unseen: a walker or a cyclist
    /// 1 m/s² (from a walk to a run, or a cyclist from 5 to 15 m/s in ten seconds, is already
    /// a sprint), anything that may be a motor vehicle 2 m/s² (0–100 km/h in 14 s, a brisk
    /// start). Chosen on the tuning tracks of Benchmarks/power.py, checked on the held-out ones.
    public static func acceleration(for activity: ActivityType) -> Double {
        activity == .fitness ? 1 : 2
    }

    /// The wake time after `fix`, which `monitor` has just processed: the distance to its nearest
    /// boundary (within `reach`), and no later than what the engine has due (a pending
    /// crossing's confirmation time, a dwell).
    /// `motion`: the device's recent fixes, `fix` included (`RecentMotion`).
    public func wake(after fix: Fix, monitor: RegionMonitor, motion: RecentMotion? = nil) -> Timestamp? {
        guard let time = fix.time else { return nil }
        let nearest = monitor.index.count == 0
            ? reach : monitor.index.distanceToNearestBoundary(from: fix.coordinate, limit: reach)
        return wake(after: fix, nearestBoundary: nearest, due: monitor.nextDue(after: time), motion: motion)
    }
}
