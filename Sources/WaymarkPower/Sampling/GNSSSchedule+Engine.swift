import WaymarkCore
import WaymarkRegions
import WaymarkServices

/// The schedule as replay and the daemon both use it: built from what is subscribed, and asked
/// after each fix the region engine has seen.
extension GNSSSchedule {
    /// The schedule for `subscriptions` at `activity`'s speed bound, with `profile`'s hot start
    /// and break-even sleep: significant change adds a circle of its distance (a fix at least as often as the device
    /// could leave it), visits and the timeline a circle of their radius.
    public init(activity: ActivityType, subscriptions: [ServiceSubscription], profile: PowerProfile) {
        var radii: [Double] = []
        for services in subscriptions {
            if let significant = services.significantChange { radii.append(significant.minimumDistance) }
            if let visits = services.visits { radii.append(visits.radius) }
            if let timeline = services.timeline { radii.append(timeline.radius) }
        }
        self.init(profile: profile, maximumSpeed: activity.maximumSpeed, serviceRadii: radii)
    }

    /// The wake time after `fix`, which `monitor` has just processed: the distance to its nearest
    /// boundary (within `reach`), and no later than what the engine has due (a pending
    /// crossing's confirmation time, a dwell).
    public func wake(after fix: Fix, monitor: RegionMonitor) -> Timestamp? {
        guard let time = fix.time else { return nil }
        let nearest = monitor.index.count == 0
            ? reach : monitor.index.distanceToNearestBoundary(from: fix.coordinate, limit: reach)
        return wake(after: fix, nearestBoundary: nearest, due: monitor.nextDue(after: time))
    }
}
